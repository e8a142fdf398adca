import { z } from 'zod';

/** ISO 8601 UTC with milliseconds and `Z`, on every resource. */
export const Timestamp = z.string().meta({ example: '2026-11-22T18:03:00.000Z' });

/** Paging extension: without `limit`/`after` a list returns every item, newest first. */
export const ListQuery = z.object({
  // Plain decimal digits only: a number coercion also took `1e3`, `0x10` and ` 5`.
  limit: z
    .string()
    .regex(/^(?:[1-9][0-9]{0,2}|1000)$/, 'limit must be a whole number from 1 to 1000, in decimal digits')
    .transform(Number)
    .optional(),
  after: z.string().min(1).max(100).optional(),
});
export type ListQuery = z.infer<typeof ListQuery>;

export const Deleted = z.object({ id: z.string(), deleted: z.literal(true) });
export type Deleted = z.infer<typeof Deleted>;

/**
 * ext: the process and what it depends on. Anything it cannot reach makes it answer 503 `service_unavailable`
 * instead, naming the part, so a load balancer or an orchestrator takes it out of service.
 */
export const Health = z.object({
  status: z.literal('ok'),
  version: z.string(),
  /** What this process does: `ckb serve` both, `ckb serve --no-ingest` the API alone. */
  role: z.enum(['api and ingestion', 'api']),
  database: z.object({ status: z.literal('ok'), kind: z.enum(['sqlite', 'postgres']) }),
  lancedb: z.object({ status: z.literal('ok') }),
  /** The ingestion queue of every process sharing the database: sources waiting, being ingested, failed. */
  queue: z.object({
    waiting: z.number().int(),
    leased: z.number().int(),
    failed: z.number().int(),
  }),
});
export type Health = z.infer<typeof Health>;
