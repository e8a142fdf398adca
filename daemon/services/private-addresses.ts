import type { PrivateAddressPolicy } from '../config.ts';
import type { SourceRecord } from '../store/records.ts';

/**
 * Whether a source may fetch private addresses is decided when it is added, by the key that adds it, and kept
 * on the source (as the optional field `allow_private_addresses` of its stored record), so ingestion resumed
 * after a restart decides the same. Only sources added with an admin key carry it.
 */
export interface PrivateAddressGrant {
  allow_private_addresses?: true;
}

export function privateAddressGrant(admin: boolean): PrivateAddressGrant {
  return admin ? { allow_private_addresses: true } : {};
}

/** Whether ingesting `source` must refuse private, loopback and link-local addresses. */
export function blocksPrivateAddresses(policy: PrivateAddressPolicy, source: SourceRecord): boolean {
  if (policy === 'allowed') return false;
  if (policy === 'blocked') return true;
  return (source as SourceRecord & PrivateAddressGrant).allow_private_addresses !== true;
}
