/**
 * A source that cannot be ingested for a reason its owner can act on (a file that cannot be read, a page that
 * cannot be fetched, an address that may not be reached, a provider that refuses). The message is one sentence
 * for them and becomes the source's `embed_status_message`; any other error is the daemon's fault, logged, and
 * shown as an internal error.
 */
export class SourceError extends Error {
  override name = 'SourceError';
}
