import { newId } from '../ids.ts';
import type { Database } from './database.ts';
import { newestFirst, type Page } from './paging.ts';
import type { ApplicationRecord } from './records.ts';

export type ApplicationStore = ReturnType<typeof createApplicationStore>;

export function createApplicationStore(database: Database) {
  const { db } = database;
  return {
    async find(accountId: string, id: string): Promise<ApplicationRecord | undefined> {
      return db
        .selectFrom('applications')
        .selectAll()
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
    },

    async list(accountId: string, page: Page): Promise<ApplicationRecord[]> {
      const query = db.selectFrom('applications').selectAll().where('account_id', '=', accountId);
      return newestFirst(query, 'id', page, 'app').execute();
    },

    async insert(record: ApplicationRecord): Promise<void> {
      await db.insertInto('applications').values(record).execute();
    },

    /** Sets some fields; returns the record as it now is, or undefined when it is not there. */
    async update(
      accountId: string,
      id: string,
      changes: Partial<Omit<ApplicationRecord, 'id' | 'account_id' | 'created_at'>>,
    ): Promise<ApplicationRecord | undefined> {
      return db
        .updateTable('applications')
        .set(changes)
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .returningAll()
        .executeTakeFirst();
    },

    /**
     * Deletes the application with its sources, their jobs, its conversations and their messages (foreign keys
     * cascade) in one transaction, and queues its chunks for removal from LanceDB: from the commit on, nothing
     * of it is visible, and a crash cannot leave half of it.
     */
    async delete(accountId: string, id: string, at: string): Promise<boolean> {
      return database.transaction(async (trx) => {
        const deleted = await trx
          .deleteFrom('applications')
          .where('id', '=', id)
          .where('account_id', '=', accountId)
          .executeTakeFirst();
        if (Number(deleted.numDeletedRows) !== 1) return false;
        await trx
          .insertInto('chunk_purges')
          .values({
            id: newId('purge'),
            application_id: id,
            source_id: null,
            passes: 0,
            run_after: 0,
            created_at: at,
          })
          .execute();
        return true;
      });
    },
  };
}
