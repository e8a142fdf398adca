import { z } from 'zod';
import { Timestamp } from './common.ts';

export const CreateKeyBody = z.object({
  account: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'account must be 1-63 lowercase letters, digits, "-" or "_"'),
  admin: z.boolean().default(false),
});
export type CreateKeyBody = z.infer<typeof CreateKeyBody>;

export const ApiKey = z.object({
  id: z.string(),
  account: z.string(),
  admin: z.boolean(),
  /** The first characters of the key, so a user can tell keys apart; the secret itself is never stored. */
  prefix: z.string(),
  created_at: Timestamp,
  revoked_at: z.string().nullable(),
});
export type ApiKey = z.infer<typeof ApiKey>;

export const CreatedKey = z.object({
  id: z.string(),
  account: z.string(),
  admin: z.boolean(),
  key: z.string(),
  created_at: Timestamp,
});
export type CreatedKey = z.infer<typeof CreatedKey>;
