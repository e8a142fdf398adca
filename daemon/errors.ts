import { STATUS_BY_TYPE } from '../src/api/error-status.ts';
import type { ErrorBody, ErrorType } from '../src/api/errors.ts';
import type { OpenAiErrorBody } from '../src/api/openai.ts';

/** Every failure a caller can act on; `type` is the contract's error type, mapped to a status in one place below. */
export class CkbError extends Error {
  readonly type: ErrorType;
  readonly param: string | undefined;
  readonly headers: Record<string, string>;

  constructor(
    type: ErrorType,
    message: string,
    options: { param?: string | undefined; cause?: unknown; headers?: Record<string, string> } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'CkbError';
    this.type = type;
    this.param = options.param;
    this.headers = options.headers ?? {};
  }
}

export const invalidRequest = (message: string, param?: string) =>
  new CkbError('invalid_request', message, { param });
export const notFound = (kind: string, id: string, param?: string) =>
  new CkbError('not_found', `${kind} ${id} not found`, { param });
export const unauthorized = (message: string) => new CkbError('unauthorized', message);
export const forbidden = (message: string) => new CkbError('forbidden', message);
export const conflict = (message: string) => new CkbError('conflict', message);
export const diskFull = (cause: unknown) =>
  new CkbError(
    'insufficient_storage',
    "the daemon's disk is full; nothing was changed: free some space and try again",
    {
      cause,
    },
  );

/** The operating system's "no space left on device", as Node reports it (LanceDB's errors only say it). */
export function isDiskFullError(error: unknown): boolean {
  return (
    (error as NodeJS.ErrnoException | undefined)?.code === 'ENOSPC' ||
    (error instanceof Error && /no space left on device/i.test(error.message))
  );
}

export function isCkbError(error: unknown): error is CkbError {
  return error instanceof CkbError;
}

export interface ErrorResponse {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
  /** Our fault rather than the caller's: log it. */
  internal: boolean;
}

/** The only place an error becomes a status and a body; unknown errors hide their message. */
export function toErrorResponse(error: unknown): ErrorResponse {
  if (isCkbError(error)) {
    const body: ErrorBody = { error: { type: error.type, message: error.message } };
    if (error.param !== undefined) body.error.param = error.param;
    return { status: STATUS_BY_TYPE[error.type], body, headers: error.headers, internal: false };
  }
  return {
    status: 500,
    body: { error: { type: 'internal_error', message: 'internal error; the daemon log has the details' } },
    headers: {},
    internal: true,
  };
}

/** OpenAI's codes for the cases it has one for; every other error carries ckb's type as its code. */
function openAiCode(body: ErrorBody): string {
  const { type, param } = body.error;
  if (type === 'unauthorized') return 'invalid_api_key';
  if (type === 'rate_limited') return 'rate_limit_exceeded';
  if (type === 'not_found' && param === 'model') return 'model_not_found';
  return type;
}

/** The same status as toErrorResponse, with OpenAI's error body, for the OpenAI-compatible API under /v1. */
export function toOpenAiErrorResponse(
  error: unknown,
): Omit<ErrorResponse, 'body'> & { body: OpenAiErrorBody } {
  const response = toErrorResponse(error);
  const type =
    response.status >= 500
      ? 'server_error'
      : response.status === 429
        ? 'rate_limit_error'
        : 'invalid_request_error';
  const body: OpenAiErrorBody = {
    error: {
      message: response.body.error.message,
      type,
      param: response.body.error.param ?? null,
      code: openAiCode(response.body),
    },
  };
  return { ...response, body };
}
