import { conflict } from '../errors.ts';
import type { Database } from './database.ts';
import { newestFirst, type Page } from './paging.ts';
import type { FileRecord } from './records.ts';

export type FileStore = ReturnType<typeof createFileStore>;

export function createFileStore(database: Database) {
  const { db } = database;
  return {
    async find(accountId: string, id: string): Promise<FileRecord | undefined> {
      return db
        .selectFrom('files')
        .selectAll()
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
    },

    /** Whether any account has a file with this id: an upload address is spent once its file exists. */
    async exists(id: string): Promise<boolean> {
      return (
        (await db.selectFrom('files').select('id').where('id', '=', id).executeTakeFirst()) !== undefined
      );
    },

    async list(accountId: string, page: Page): Promise<FileRecord[]> {
      const query = db.selectFrom('files').selectAll().where('account_id', '=', accountId);
      return newestFirst(query, 'id', page, 'file').execute();
    },

    async insert(record: FileRecord): Promise<void> {
      await db.insertInto('files').values(record).execute();
    },

    /**
     * Deletes the file's record unless a source uses it (409, naming them); returns false when there is no such
     * file. The bytes on disk are the caller's to remove once this commits.
     */
    async delete(accountId: string, id: string): Promise<boolean> {
      return database.transaction(async (trx) => {
        const users = await trx
          .selectFrom('sources')
          .select('id')
          .where('account_id', '=', accountId)
          .where('type', '=', 'file')
          .where('content', '=', id)
          .orderBy('id')
          .limit(11)
          .execute();
        if (users.length > 0) {
          const named = users.slice(0, 10).map((source) => source.id);
          const more = users.length > 10 ? ' and more' : '';
          throw conflict(
            `file ${id} is used by source${named.length > 1 ? 's' : ''} ${named.join(', ')}${more}; delete ${named.length > 1 ? 'them' : 'it'} first`,
          );
        }
        const result = await trx
          .deleteFrom('files')
          .where('id', '=', id)
          .where('account_id', '=', accountId)
          .executeTakeFirst();
        return Number(result.numDeletedRows) === 1;
      });
    },

    /** Every file id, for removing bytes on disk that no record points to. */
    async allIds(): Promise<Set<string>> {
      return new Set((await db.selectFrom('files').select('id').execute()).map((row) => row.id));
    },
  };
}
