import type { Selectable } from 'kysely';
import { newId } from '../ids.ts';
import type { Database } from './database.ts';
import { createReadCache } from './read-cache.ts';
import type { AccountRecord, KeyRecord } from './records.ts';
import type { KeyTable } from './schema.ts';

function toKey(row: Selectable<KeyTable>): KeyRecord {
  return { ...row, admin: Boolean(row.admin) };
}

type KeyWithAccount = { key: KeyRecord; account: AccountRecord };

export type KeyStore = ReturnType<typeof createKeyStore>;

/** The `settings` row that says the first admin key was created, and when. */
const FIRST_KEY_SETTING = 'first_admin_key';

/** Accounts and their API keys. */
export function createKeyStore(database: Database) {
  const { db } = database;
  const byHash = createReadCache<KeyWithAccount | undefined>(database.kind === 'sqlite');

  async function findByHash(hash: string): Promise<KeyWithAccount | undefined> {
    const row = await db
      .selectFrom('keys')
      .innerJoin('accounts', 'accounts.id', 'keys.account_id')
      .selectAll('keys')
      .select(['accounts.name as account_name', 'accounts.created_at as account_created_at'])
      .where('keys.hash', '=', hash)
      .executeTakeFirst();
    if (!row) return undefined;
    const { account_name, account_created_at, ...key } = row;
    return {
      key: toKey(key),
      account: { id: key.account_id, name: account_name, created_at: account_created_at },
    };
  }

  /**
   * Adds a key to the account named `accountName`, creating the account if it is new, in one transaction. With
   * `onlyIfNone`, adds it only when the database holds no key at all (the first start's admin key), and returns
   * undefined otherwise: of several processes starting together on a new database, exactly one adds it, as a
   * `settings` row claims the first key first and the others' claims wait for it, then find it taken.
   */
  function insertKey(
    accountName: string,
    key: Omit<KeyRecord, 'account_id'>,
    options: { onlyIfNone?: boolean },
  ): Promise<KeyWithAccount | undefined> {
    return database.transaction(async (trx) => {
      if (options.onlyIfNone) {
        const claimed = await trx
          .insertInto('settings')
          .values({ name: FIRST_KEY_SETTING, value: key.created_at })
          .onConflict((conflict) => conflict.column('name').doNothing())
          .executeTakeFirst();
        if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0) return undefined;
        // A database from before the claim existed holds keys but no claim.
        if (await trx.selectFrom('keys').select('id').limit(1).executeTakeFirst()) return undefined;
      }
      let account = await trx
        .selectFrom('accounts')
        .selectAll()
        .where('name', '=', accountName)
        .executeTakeFirst();
      if (!account) {
        account = { id: newId('acct'), name: accountName, created_at: key.created_at };
        await trx.insertInto('accounts').values(account).execute();
      }
      const record: KeyRecord = { ...key, account_id: account.id };
      await trx
        .insertInto('keys')
        .values({ ...record, admin: record.admin ? 1 : 0 })
        .execute();
      return { key: record, account };
    });
  }

  return {
    /** The key with this hash and its account, revoked or not: read for every request. */
    findByHash(hash: string): Promise<KeyWithAccount | undefined> {
      return byHash.read(hash, () => findByHash(hash));
    },

    async find(id: string): Promise<KeyRecord | undefined> {
      const row = await db.selectFrom('keys').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toKey(row);
    },

    /** Every key with its account's name, newest first. */
    async list(): Promise<(KeyRecord & { account: string })[]> {
      const rows = await db
        .selectFrom('keys')
        .innerJoin('accounts', 'accounts.id', 'keys.account_id')
        .selectAll('keys')
        .select('accounts.name as account')
        .orderBy('keys.id', 'desc')
        .execute();
      return rows.map((row) => ({ ...toKey(row), account: row.account }));
    },

    /** Adds a key (see insertKey); returns undefined when `onlyIfNone` found keys. */
    async create(
      accountName: string,
      key: Omit<KeyRecord, 'account_id'>,
      options: { onlyIfNone?: boolean } = {},
    ): Promise<KeyWithAccount | undefined> {
      try {
        return await insertKey(accountName, key, options);
      } finally {
        byHash.invalidate(key.hash);
      }
    },

    /** Marks a key revoked; false when it is unknown or revoked already. */
    async revoke(id: string, at: string): Promise<boolean> {
      try {
        const result = await db
          .updateTable('keys')
          .set({ revoked_at: at })
          .where('id', '=', id)
          .where('revoked_at', 'is', null)
          .executeTakeFirst();
        return Number(result.numUpdatedRows) === 1;
      } finally {
        byHash.invalidate();
      }
    },
  };
}
