import { createHash, randomBytes } from 'node:crypto';
import type { ApiKey, CreatedKey, CreateKeyBody } from '../../src/api/keys.ts';
import { type Clock, timestamp } from '../clock.ts';
import { CkbError, forbidden, notFound, unauthorized } from '../errors.ts';
import { newId } from '../ids.ts';
import type { Store } from '../store/index.ts';
import type { AccountRecord, KeyRecord } from '../store/records.ts';
import { newestFirst } from './paging.ts';

export interface Caller {
  account: AccountRecord;
  key: KeyRecord;
}

function hashKey(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export type KeyService = ReturnType<typeof createKeyService>;

export function createKeyService(deps: { store: Store; clock: Clock }) {
  const { store, clock } = deps;
  // Lookup by the SHA-256 of the presented key: the comparison that decides access is on a hash the caller
  // cannot steer byte by byte, so it leaks nothing about stored secrets through timing.
  const byHash = new Map<string, KeyRecord>();
  for (const key of store.keys.values()) byHash.set(key.hash, key);
  // Hashing every request's key was a visible share of a request's CPU; presented keys map to their hash
  // here. Revocation still acts at once, since the key record itself is looked up in `byHash` each time.
  const hashes = new Map<string, string>();
  function hashOf(secret: string): string {
    let hash = hashes.get(secret);
    if (hash === undefined) {
      if (hashes.size >= 10_000) hashes.clear();
      hash = hashKey(secret);
      hashes.set(secret, hash);
    }
    return hash;
  }

  function toApiKey(key: KeyRecord): ApiKey {
    const account = store.accounts.get(key.account_id);
    return {
      id: key.id,
      account: account?.name ?? key.account_id,
      admin: key.admin,
      prefix: key.prefix,
      created_at: key.created_at,
      revoked_at: key.revoked_at,
    };
  }

  async function accountNamed(name: string): Promise<AccountRecord> {
    const existing = store.accounts.values().find((account) => account.name === name);
    if (existing) return existing;
    const id = newId('acct');
    const account: AccountRecord = { id, account_id: id, name, created_at: timestamp(clock) };
    await store.accounts.put(account);
    return account;
  }

  async function create(body: CreateKeyBody): Promise<CreatedKey> {
    const account = await accountNamed(body.account);
    const secret = `ckb_${randomBytes(24).toString('base64url')}`;
    const key: KeyRecord = {
      id: newId('key'),
      account_id: account.id,
      hash: hashKey(secret),
      prefix: secret.slice(0, 8),
      admin: body.admin,
      created_at: timestamp(clock),
      revoked_at: null,
    };
    await store.keys.put(key);
    byHash.set(key.hash, key);
    return { id: key.id, account: account.name, admin: key.admin, key: secret, created_at: key.created_at };
  }

  return {
    /** First start: the `default` account and its admin key; returns the key, or undefined when accounts exist. */
    async bootstrap(): Promise<string | undefined> {
      if (store.keys.size > 0) return undefined;
      return (await create({ account: 'default', admin: true })).key;
    },

    authenticate(header: string | undefined): Caller {
      if (!header) throw unauthorized('missing API key: send the header "Authorization: Bearer <key>"');
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
      if (!match?.[1]) throw unauthorized('malformed Authorization header: expected "Bearer <key>"');
      const key = byHash.get(hashOf(match[1]));
      if (!key || key.revoked_at) throw unauthorized('unknown or revoked API key');
      const account = store.accounts.get(key.account_id);
      if (!account) throw unauthorized('unknown or revoked API key');
      return { account, key };
    },

    requireAdmin(caller: Caller): void {
      if (!caller.key.admin) throw forbidden('this endpoint needs an admin key');
    },

    create,

    list(): ApiKey[] {
      return newestFirst(store.keys.values()).map(toApiKey);
    },

    async revoke(caller: Caller, id: string): Promise<{ id: string; deleted: true }> {
      const key = store.keys.get(id);
      if (!key || key.revoked_at) throw notFound('key', id);
      if (key.id === caller.key.id) {
        throw new CkbError('invalid_request', 'a key cannot revoke itself; revoke it with another admin key');
      }
      const revoked = { ...key, revoked_at: timestamp(clock) };
      await store.keys.put(revoked);
      byHash.set(revoked.hash, revoked);
      return { id, deleted: true };
    },
  };
}
