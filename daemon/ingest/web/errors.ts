import { SourceError } from '../../source-error.ts';

/** A web address could not be read. The message is one sentence a user can act on. */
export class FetchError extends SourceError {
  override name = 'FetchError';
  readonly url: string;
  /** The HTTP status when the server answered with an error status. */
  readonly status?: number;

  constructor(url: string, message: string, options: { cause?: unknown; status?: number } = {}) {
    super(message, options.cause === undefined ? {} : { cause: options.cause });
    this.url = url;
    if (options.status !== undefined) this.status = options.status;
  }
}
