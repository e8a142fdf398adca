import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { SourceError } from '../../source-error.ts';

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

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a trailing dotted IPv4 part converted). */
function ipv6Groups(address: string): number[] {
  const withoutZone = address.replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(withoutZone);
  const hex = dotted
    ? `${withoutZone.slice(0, dotted.index)}${((Number(dotted[1]) << 8) | Number(dotted[2])).toString(16)}:${((Number(dotted[3]) << 8) | Number(dotted[4])).toString(16)}`
    : withoutZone;
  const [head = '', tail] = hex.split('::');
  const parse = (part: string) =>
    part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16));
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

function ipv4From(high: number, low: number): string {
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/**
 * The IPv4 address an IPv6 address carries, for the forms that reach (or translate to) that IPv4 host: mapped
 * (::ffff:0:0/96), translated (::ffff:0:0:0/96), compatible (::/96), NAT64 (64:ff9b::/96), 6to4 (2002::/16)
 * and Teredo (2001::/32, whose client address is stored inverted). Such an address is as private as its IPv4.
 */
function embeddedIpv4(address: string): string[] {
  const groups = ipv6Groups(address);
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const zeroUpTo = (count: number) => groups.slice(0, count).every((group) => group === 0);
  if (zeroUpTo(5) && (g5 === 0xffff || g5 === 0)) return [ipv4From(g6, g7)];
  if (zeroUpTo(4) && g4 === 0xffff && g5 === 0) return [ipv4From(g6, g7)];
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return [ipv4From(g6, g7)];
  if (g0 === 0x2002) return [ipv4From(g1, g2)];
  if (g0 === 0x2001 && g1 === 0) return [ipv4From(g2, g3), ipv4From(g6 ^ 0xffff, g7 ^ 0xffff)];
  return [];
}

/** Whether an IP address belongs to the public internet (not loopback, private, link-local, CGNAT, …). */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 0) return false;
  if (family === 4) return !nonPublic.check(bare, 'ipv4');
  if (embeddedIpv4(bare).some((ipv4) => nonPublic.check(ipv4, 'ipv4'))) return false;
  // Only global unicast (2000::/3) is public in IPv6.
  if (!/^[23]/.test(bare)) return false;
  return !nonPublic.check(bare, 'ipv6');
}

export function refusalMessage(host: string, address: string): string {
  return host === address
    ? `${host} is not a public internet address, and this daemon refuses to fetch private addresses`
    : `${host} resolves to ${address}, which is not a public internet address, and this daemon refuses to fetch private addresses`;
}

export class BlockedAddressError extends SourceError {
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
