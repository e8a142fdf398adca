import { STATUS_BY_TYPE } from '../api/error-status.ts';
import type { ErrorBody, ErrorType } from '../api/errors.ts';

/** The daemon answered with an error: `status`, `type` and `param` are the contract's. */
export class CkbApiError extends Error {
  override name = 'CkbApiError';
  readonly status: number;
  readonly type: ErrorType | undefined;
  readonly param: string | undefined;

  constructor(status: number, body: ErrorBody | undefined, fallbackMessage: string) {
    super(body?.error.message ?? fallbackMessage);
    this.status = status;
    this.type = body?.error.type;
    this.param = body?.error.param;
  }

  static generate(status: number, body: ErrorBody | undefined, retryAfter?: string): CkbApiError {
    const message = `the daemon answered ${status}`;
    switch (status) {
      case 400:
        return new BadRequestError(status, body, message);
      case 401:
        return new AuthenticationError(status, body, message);
      case 403:
        return new PermissionDeniedError(status, body, message);
      case 404:
        return new NotFoundError(status, body, message);
      case 405:
        return new MethodNotAllowedError(status, body, message);
      case 409:
        return new ConflictError(status, body, message);
      case 413:
        return new PayloadTooLargeError(status, body, message);
      case 415:
        return new UnsupportedMediaTypeError(status, body, message);
      case 429:
        return new RateLimitError(status, body, message, retryAfterSeconds(retryAfter));
      case 502:
        return new UpstreamError(status, body, message);
      case 503:
        return new ServiceUnavailableError(status, body, message);
      case 507:
        return new InsufficientStorageError(status, body, message);
    }
    if (status >= 500) return new InternalServerError(status, body, message);
    return new CkbApiError(status, body, message);
  }

  static fromStreamError(body: ErrorBody): CkbApiError {
    return CkbApiError.generate(STATUS_BY_TYPE[body.error.type], body);
  }
}

export class BadRequestError extends CkbApiError {
  override name = 'BadRequestError';
}
export class AuthenticationError extends CkbApiError {
  override name = 'AuthenticationError';
}
export class PermissionDeniedError extends CkbApiError {
  override name = 'PermissionDeniedError';
}
export class NotFoundError extends CkbApiError {
  override name = 'NotFoundError';
}
export class MethodNotAllowedError extends CkbApiError {
  override name = 'MethodNotAllowedError';
}
export class ConflictError extends CkbApiError {
  override name = 'ConflictError';
}
export class PayloadTooLargeError extends CkbApiError {
  override name = 'PayloadTooLargeError';
}
export class UnsupportedMediaTypeError extends CkbApiError {
  override name = 'UnsupportedMediaTypeError';
}
export class RateLimitError extends CkbApiError {
  override name = 'RateLimitError';
  readonly retryAfter: number | undefined;

  constructor(
    status: number,
    body: ErrorBody | undefined,
    fallbackMessage: string,
    retryAfter: number | undefined,
  ) {
    super(status, body, fallbackMessage);
    this.retryAfter = retryAfter;
  }
}
export class UpstreamError extends CkbApiError {
  override name = 'UpstreamError';
}
/** The daemon is up but cannot reach its database for now; the request changed nothing and may be retried. */
export class ServiceUnavailableError extends CkbApiError {
  override name = 'ServiceUnavailableError';
}
export class InsufficientStorageError extends CkbApiError {
  override name = 'InsufficientStorageError';
}
export class InternalServerError extends CkbApiError {
  override name = 'InternalServerError';
}

/** Nothing listens at the URL (connection refused, unknown host): the daemon is not running there. */
export class DaemonUnreachableError extends Error {
  override name = 'DaemonUnreachableError';
  readonly url: string;

  constructor(url: string, options: { cause: unknown }) {
    super(`cannot reach the ckb daemon at ${url}`, options);
    this.url = url;
  }
}

/** The caller aborted the request (its signal fired, or it left a `for await` early). */
export class RequestAbortedError extends Error {
  override name = 'RequestAbortedError';
}

/** The daemon answered something the contract does not allow: a version mismatch or a bug. */
export class InvalidResponseError extends Error {
  override name = 'InvalidResponseError';
}

function retryAfterSeconds(retryAfter: string | undefined): number | undefined {
  const value = Number(retryAfter);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}
