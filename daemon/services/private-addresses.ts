import type { PrivateAddressPolicy } from '../config.ts';
import type { SourceRecord } from '../store/records.ts';

/**
 * Whether ingesting `source` must refuse private, loopback and link-local addresses. Under `admin-only` (a
 * loopback daemon's default) it is decided when the source is added, by the key that adds it, and kept on the
 * source, so ingestion resumed after a restart decides the same.
 */
export function blocksPrivateAddresses(
  policy: PrivateAddressPolicy,
  source: Pick<SourceRecord, 'allow_private_addresses'>,
): boolean {
  if (policy === 'allowed') return false;
  if (policy === 'blocked') return true;
  return !source.allow_private_addresses;
}
