import { z } from 'zod';

/** ISO 8601 UTC with milliseconds and `Z`, on every resource. */
export const Timestamp = z.string().meta({ example: '2026-11-22T18:03:00.000Z' });

/** Paging extension: without `limit`/`after` a list returns every item, newest first. */
export const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  after: z.string().min(1).max(100).optional(),
});
export type ListQuery = z.infer<typeof ListQuery>;

export const Deleted = z.object({ id: z.string(), deleted: z.literal(true) });
export type Deleted = z.infer<typeof Deleted>;

export const Health = z.object({ status: z.literal('ok'), version: z.string() });
export type Health = z.infer<typeof Health>;
