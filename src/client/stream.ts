import type { Readable } from 'node:stream';
import type { StreamEvent } from '../api/conversations.ts';
import { CkbApiError, InvalidResponseError, RequestAbortedError } from './errors.ts';
import { readServerSentEvents, toStreamEvent } from './sse.ts';

/** `error` events are thrown as typed errors rather than yielded, so a loop cannot miss them. */
export type ReplyStreamEvent = Exclude<StreamEvent, { event: 'error' }>;

/**
 * A streamed reply. It owns the request: leaving `for await` early (break, return, throw) aborts it,
 * which tells the daemon to stop generating. It can be iterated once.
 */
export class ReplyStream implements AsyncIterable<ReplyStreamEvent> {
  readonly #body: Readable;
  readonly #controller: AbortController;
  #iterated = false;

  constructor(body: Readable, controller: AbortController) {
    this.#body = body;
    this.#controller = controller;
  }

  abort(): void {
    this.#controller.abort();
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<ReplyStreamEvent> {
    if (this.#iterated) throw new Error('a reply stream can be iterated only once');
    this.#iterated = true;
    let finished = false;
    try {
      for await (const message of readServerSentEvents(this.#body)) {
        const event = toStreamEvent(message);
        if (event === undefined) continue;
        if (event.event === 'error') throw CkbApiError.fromStreamError(event.data);
        yield event;
        if (event.event === 'done') {
          finished = true;
          return;
        }
      }
      throw new InvalidResponseError('the reply stream ended before its "done" event');
    } catch (error) {
      if (this.#controller.signal.aborted && !(error instanceof CkbApiError)) {
        throw new RequestAbortedError('the reply was aborted', { cause: error });
      }
      throw error;
    } finally {
      if (!finished) this.#controller.abort();
    }
  }

  /** Reads the stream to its end and returns the final reply, calling `onDelta` with each piece of text. */
  async finalReply(
    onDelta?: (delta: string) => void,
  ): Promise<Extract<StreamEvent, { event: 'done' }>['data']> {
    for await (const event of this) {
      if (event.event === 'chunk') onDelta?.(event.data.delta);
      else return event.data;
    }
    throw new InvalidResponseError('the reply stream ended before its "done" event');
  }
}
