import { z } from 'zod';

/** The contract's error types; each maps to exactly one HTTP status (daemon/errors.ts). */
export const ERROR_TYPES = [
  'invalid_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'upstream_error',
  'service_unavailable',
  'insufficient_storage',
  'internal_error',
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

export const ErrorBody = z.object({
  error: z.object({
    type: z.enum(ERROR_TYPES),
    message: z.string(),
    param: z.string().optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
