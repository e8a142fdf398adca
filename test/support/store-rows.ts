import type { Database } from '../../daemon/store/database.ts';

/** The account `acct_1` and its application `app_1`, which the store's tests add their sources to. */
export async function addAccountAndApplication(database: Database, at: string): Promise<void> {
  await database.db.insertInto('accounts').values({ id: 'acct_1', name: 'one', created_at: at }).execute();
  await database.db
    .insertInto('applications')
    .values({
      id: 'app_1',
      account_id: 'acct_1',
      name: 'store test',
      description: '',
      model: 'lm-3.5-turbo',
      system_message: '',
      created_at: at,
      updated_at: at,
    })
    .execute();
}
