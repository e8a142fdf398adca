import { createHash, randomBytes } from 'node:crypto';
import type { ApiKey, CreatedKey, CreateKeyBody } from '../../src/api/keys.ts';
import { type Clock, timestamp } from '../clock.ts';
import { CkbError, forbidden, notFound, unauthorized } from '../errors.ts';
import { newId } from '../ids.ts';
import type { Store } from '../store/index.ts';
import type { AccountRecord, KeyRecord } from '../store/records.ts';

export interface Caller {
  account: AccountRecord;
  key: KeyRecord;
}

function hashKey(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

function newSecret(): { secret: string; hash: string; prefix: string } {
  const secret = `ckb_${randomBytes(24).toString('base64url')}`;
  return { secret, hash: hashKey(secret), prefix: secret.slice(0, 8) };
}

/** Presented keys remembered with their hash; past this many, the memory starts over. */
const REMEMBERED_HASHES = 10_000;

export type KeyService = ReturnType<typeof createKeyService>;

export function createKeyService(deps: { store: Store; clock: Clock }) {
  const { store, clock } = deps;
  // Hashing every request's key was a visible share of a request's CPU; presented keys map to their hash here.
  // The key itself is read from the database on every request, so a revocation acts at once, in every process.
  const hashes = new Map<string, string>();
  function hashOf(secret: string): string {
    let hash = hashes.get(secret);
    if (hash === undefined) {
      if (hashes.size >= REMEMBERED_HASHES) hashes.clear();
      hash = hashKey(secret);
      hashes.set(secret, hash);
    }
    return hash;
  }

  function toApiKey(key: KeyRecord & { account: string }): ApiKey {
    return {
      id: key.id,
      account: key.account,
      admin: key.admin,
      prefix: key.prefix,
      created_at: key.created_at,
      revoked_at: key.revoked_at,
    };
  }

  async function create(body: CreateKeyBody, options: { onlyIfNone?: boolean } = {}) {
    const { secret, hash, prefix } = newSecret();
    const created = await store.keys.create(
      body.account,
      { id: newId('key'), hash, prefix, admin: body.admin, created_at: timestamp(clock), revoked_at: null },
      options,
    );
    return created && { created, secret };
  }

  return {
    /**
     * First start: the `default` account and its admin key; returns the key, or undefined when keys exist.
     * Two processes starting on one new database both ask; the database lets exactly one add it.
     */
    async bootstrap(): Promise<string | undefined> {
      return (await create({ account: 'default', admin: true }, { onlyIfNone: true }))?.secret;
    },

    async authenticate(header: string | undefined): Promise<Caller> {
      if (!header) throw unauthorized('missing API key: send the header "Authorization: Bearer <key>"');
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
      if (!match?.[1]) throw unauthorized('malformed Authorization header: expected "Bearer <key>"');
      const found = await store.keys.findByHash(hashOf(match[1]));
      if (!found || found.key.revoked_at) throw unauthorized('unknown or revoked API key');
      return found;
    },

    requireAdmin(caller: Caller): void {
      if (!caller.key.admin) throw forbidden('this endpoint needs an admin key');
    },

    /** Whether a key may still act: signed upload addresses are tied to the key that asked for them. */
    async isActive(keyId: string): Promise<boolean> {
      const key = await store.keys.find(keyId);
      return key !== undefined && key.revoked_at === null;
    },

    async create(body: CreateKeyBody): Promise<CreatedKey> {
      const { created, secret } = (await create(body))!;
      return {
        id: created.key.id,
        account: created.account.name,
        admin: created.key.admin,
        key: secret,
        created_at: created.key.created_at,
      };
    },

    async list(): Promise<ApiKey[]> {
      return (await store.keys.list()).map(toApiKey);
    },

    async revoke(caller: Caller, id: string): Promise<{ id: string; deleted: true }> {
      if (id === caller.key.id) {
        throw new CkbError('invalid_request', 'a key cannot revoke itself; revoke it with another admin key');
      }
      if (!(await store.keys.revoke(id, timestamp(clock)))) throw notFound('key', id);
      return { id, deleted: true };
    },
  };
}
