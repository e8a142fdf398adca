// Kept free of zod so the CLI can map statuses without loading the schemas.
import type { ErrorType } from './errors.ts';

/** The contract's status for each error type: the daemon answers with it, the client reads it back. */
export const STATUS_BY_TYPE: Record<ErrorType, number> = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  upstream_error: 502,
  service_unavailable: 503,
  insufficient_storage: 507,
  internal_error: 500,
};
