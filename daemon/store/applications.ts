import { newId } from '../ids.ts';
import type { Database } from './database.ts';
import { newestFirst, type Page } from './paging.ts';
import { createReadCache } from './read-cache.ts';
import type { ApplicationRecord } from './records.ts';

export type ApplicationStore = ReturnType<typeof createApplicationStore>;

export function createApplicationStore(database: Database) {
  const { db } = database;
  // Read by id for most requests (store/read-cache.ts); the account is checked on the record.
  const byId = createReadCache<ApplicationRecord | undefined>(database.kind === 'sqlite');
  return {
    async find(accountId: string, id: string): Promise<ApplicationRecord | undefined> {
      const record = await byId.read(id, () =>
        db.selectFrom('applications').selectAll().where('id', '=', id).executeTakeFirst(),
      );
      return record?.account_id === accountId ? record : undefined;
    },

    async list(accountId: string, page: Page): Promise<ApplicationRecord[]> {
      const query = db.selectFrom('applications').selectAll().where('account_id', '=', accountId);
      return newestFirst(query, 'id', page, 'app').execute();
    },

    async insert(record: ApplicationRecord): Promise<void> {
      try {
        await db.insertInto('applications').values(record).execute();
      } finally {
        byId.invalidate(record.id);
      }
    },

    /** Sets some fields; returns the record as it now is, or undefined when it is not there. */
    async update(
      accountId: string,
      id: string,
      changes: Partial<Omit<ApplicationRecord, 'id' | 'account_id' | 'created_at'>>,
    ): Promise<ApplicationRecord | undefined> {
      try {
        return await db
          .updateTable('applications')
          .set(changes)
          .where('id', '=', id)
          .where('account_id', '=', accountId)
          .returningAll()
          .executeTakeFirst();
      } finally {
        byId.invalidate(id);
      }
    },

    /**
     * Deletes the application with its sources, their jobs, its conversations and their messages (foreign keys
     * cascade) in one transaction, and queues its chunks for removal from LanceDB: from the commit on, nothing
     * of it is visible, and a crash cannot leave half of it.
     */
    async delete(accountId: string, id: string, at: string): Promise<boolean> {
      try {
        return await deleteApplication(accountId, id, at);
      } finally {
        byId.invalidate(id);
      }
    },
  };

  function deleteApplication(accountId: string, id: string, at: string): Promise<boolean> {
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
  }
}
