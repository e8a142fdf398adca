import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/** Ranges that never belong to a public web server (RFC 6890 special-purpose registries and friends). */
const nonPublic = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  nonPublic.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  nonPublic.addSubnet(network, prefix, 'ipv6');
}

/** IPv6 forms that embed an IPv4 address, which must be judged as that IPv4 address. */
function embeddedIpv4(address: string): string | undefined {
  const mapped = /^::(?:ffff:(?:0:)?)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hexMapped) {
    const high = Number.parseInt(hexMapped[1]!, 16);
    const low = Number.parseInt(hexMapped[2]!, 16);
    return [high >> 8, high & 255, low >> 8, low & 255].join('.');
  }
  return undefined;
}

/** Whether an IP address belongs to the public internet (not loopback, private, link-local, CGNAT, …). */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 0) return false;
  const ipv4 = family === 6 ? embeddedIpv4(bare) : bare;
  if (ipv4 !== undefined) return !nonPublic.check(ipv4, 'ipv4');
  // Only global unicast (2000::/3) is public in IPv6.
  if (!/^[23]/.test(bare)) return false;
  return !nonPublic.check(bare, 'ipv6');
}

export function refusalMessage(host: string, address: string): string {
  return host === address
    ? `${host} is not a public internet address, and this daemon refuses to fetch private addresses`
    : `${host} resolves to ${address}, which is not a public internet address, and this daemon refuses to fetch private addresses`;
}

export class BlockedAddressError extends Error {
  override name = 'BlockedAddressError';
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A drop-in for `dns.lookup` that refuses a host when any of its addresses is non-public, so the check
 * happens after resolution (a public name pointing at 127.0.0.1 is caught) and on every connection.
 */
export function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) {
      callback(error, []);
      return;
    }
    const blocked = addresses.find((entry) => !isPublicAddress(entry.address));
    if (blocked) {
      callback(new BlockedAddressError(refusalMessage(hostname, blocked.address)), []);
      return;
    }
    if (options.all) {
      callback(null, addresses);
      return;
    }
    const first = addresses[0];
    if (!first) {
      callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
      return;
    }
    callback(null, first.address, first.family);
  });
}
