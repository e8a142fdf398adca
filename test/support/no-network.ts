// Preloaded with `node --import` into a process, and so into every thread it starts: any attempt to reach the
// network is written to stderr and fails. Shows that a code path needs no network and never tries one.
import dns from 'node:dns';
import net from 'node:net';

function refuse(what: string): never {
  process.stderr.write(`network attempt: ${what}\n`);
  throw new Error(`the network is blocked in this process (${what})`);
}

net.Socket.prototype.connect = (() => refuse('socket connect')) as never;
dns.lookup = (() => refuse('DNS lookup')) as never;
dns.promises.lookup = (() => refuse('DNS lookup')) as never;
globalThis.fetch = (() => refuse('fetch')) as never;
