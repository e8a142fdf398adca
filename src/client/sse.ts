import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { type StreamEvent, StreamEvents } from '../api/conversations.ts';
import { InvalidResponseError } from './errors.ts';

/** A generous cap: a `done` event carries the whole reply, but an endless line is a broken server. */
const MAX_EVENT_CHARACTERS = 16 * 1024 * 1024;

/** Decodes bytes as UTF-8 across chunk boundaries and yields each complete server-sent event. */
export async function* readServerSentEvents(
  body: AsyncIterable<Uint8Array | string>,
): AsyncGenerator<EventSourceMessage> {
  const ready: EventSourceMessage[] = [];
  let failure: Error | undefined;
  const parser = createParser({
    maxBufferSize: MAX_EVENT_CHARACTERS,
    onEvent: (message) => ready.push(message),
    onError: (error) => {
      failure = new InvalidResponseError(`unreadable event stream: ${error.message}`);
    },
  });
  const decoder = new TextDecoder();
  for await (const chunk of body) {
    parser.feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    if (failure) throw failure;
    yield* ready.splice(0);
  }
  parser.feed(decoder.decode());
  parser.reset({ consume: true });
  if (failure) throw failure;
  yield* ready.splice(0);
}

/** Checks one event against the contract; unknown event names are skipped so newer daemons stay compatible. */
export function toStreamEvent(message: EventSourceMessage): StreamEvent | undefined {
  const name = message.event;
  if (name !== 'chunk' && name !== 'done' && name !== 'error') return undefined;
  let json: unknown;
  try {
    json = JSON.parse(message.data);
  } catch {
    throw new InvalidResponseError(`the daemon sent a "${name}" event whose data is not JSON`);
  }
  const parsed = StreamEvents[name].safeParse(json);
  if (!parsed.success) {
    throw new InvalidResponseError(
      `the daemon sent an invalid "${name}" event: ${parsed.error.issues[0]?.message}`,
    );
  }
  return { event: name, data: json } as StreamEvent;
}
