import type { Database } from './database.ts';

export type SettingStore = ReturnType<typeof createSettingStore>;

/** Values the daemon keeps in its database, shared by every process that uses it. */
export function createSettingStore(database: Database) {
  const { db } = database;
  return {
    async get(name: string): Promise<string | undefined> {
      const row = await db.selectFrom('settings').select('value').where('name', '=', name).executeTakeFirst();
      return row?.value;
    },

    async set(name: string, value: string): Promise<void> {
      await db
        .insertInto('settings')
        .values({ name, value })
        .onConflict((conflict) => conflict.column('name').doUpdateSet({ value }))
        .execute();
    },

    /**
     * The value of `name`, set to `initial()` if it has none yet. When two processes start together, the first
     * to commit wins and both get its value.
     */
    async getOrCreate(name: string, initial: () => string): Promise<string> {
      await db
        .insertInto('settings')
        .values({ name, value: initial() })
        .onConflict((conflict) => conflict.column('name').doNothing())
        .execute();
      const row = await db
        .selectFrom('settings')
        .select('value')
        .where('name', '=', name)
        .executeTakeFirstOrThrow();
      return row.value;
    },
  };
}
