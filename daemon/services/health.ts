import type { Health } from '../../src/api/common.ts';
import { CkbError } from '../errors.ts';
import type { Store } from '../store/index.ts';
import { queueStatus } from '../store/queue-status.ts';

/** A part that takes longer than this to answer counts as unavailable: a health check must answer quickly. */
const CHECK_TIMEOUT_MS = 2_000;

function withinTime<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('no answer in time')), CHECK_TIMEOUT_MS);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export type HealthService = ReturnType<typeof createHealthService>;

/**
 * GET /health: whether this process can do its work. It reads the queue (which needs the database) and the
 * chunks table's version (which needs LanceDB's storage); either failing is 503, naming the part and nothing
 * of where it is, as the endpoint needs no key.
 */
export function createHealthService(deps: { store: Store; version: string; ingests: boolean }) {
  const { store, version, ingests } = deps;
  return {
    async check(): Promise<Health> {
      const [queue, lancedb] = await Promise.allSettled([
        withinTime(queueStatus(store.database)),
        withinTime(store.chunks.check()),
      ]);
      if (queue.status === 'rejected' || lancedb.status === 'rejected') {
        const down = [
          queue.status === 'rejected' && 'the database',
          lancedb.status === 'rejected' && 'LanceDB',
        ];
        throw new CkbError(
          'service_unavailable',
          `this ckb process cannot reach ${down.filter(Boolean).join(' or ')}; it answers again once it can`,
        );
      }
      return {
        status: 'ok',
        version,
        role: ingests ? 'api and ingestion' : 'api',
        database: { status: 'ok', kind: store.database.kind },
        lancedb: { status: 'ok' },
        queue: queue.value,
      };
    },
  };
}
