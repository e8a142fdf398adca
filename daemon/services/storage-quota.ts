import { CkbError } from '../errors.ts';
import type { Store } from '../store/index.ts';

export type StorageQuota = ReturnType<typeof createStorageQuota>;

/**
 * Each account may store at most `limitBytes` of uploaded files and source content (0: no limit), so one key
 * cannot fill the daemon's disk.
 */
export function createStorageQuota(deps: { store: Store; limitBytes: number }) {
  const { store, limitBytes } = deps;
  return {
    limitBytes,

    /** Bytes the account may still add. */
    async remaining(accountId: string): Promise<number> {
      if (limitBytes === 0) return Number.POSITIVE_INFINITY;
      return Math.max(0, limitBytes - (await store.sources.storedBytes(accountId)));
    },

    /** Throws unless the account can store `adding` more bytes. */
    async check(accountId: string, adding: number): Promise<void> {
      if (adding === 0 || limitBytes === 0) return;
      if (adding <= (await this.remaining(accountId))) return;
      throw exceeded(limitBytes);
    },
  };
}

export function exceeded(limitBytes: number): CkbError {
  return new CkbError(
    'payload_too_large',
    `the account's storage limit of ${limitBytes} bytes (uploaded files and source text) would be exceeded; delete files or sources, or ask the operator to raise limits.account_storage_bytes`,
  );
}
