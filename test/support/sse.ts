import { createParser } from 'eventsource-parser';

export interface ReceivedEvent {
  event: string;
  data: any;
}

/** Posts a streamed turn and collects its events; `stopAfter` aborts the request after that many events. */
export async function postStream(
  url: string,
  apiKey: string,
  body: unknown,
  options: { stopAfter?: number } = {},
): Promise<{ status: number; contentType: string | null; events: ReceivedEvent[]; json?: any }> {
  const controller = new AbortController();
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...(body as object), stream: true }),
    signal: controller.signal,
  });
  const contentType = response.headers.get('content-type');
  if (!contentType?.startsWith('text/event-stream')) {
    return { status: response.status, contentType, events: [], json: await response.json() };
  }
  const events: ReceivedEvent[] = [];
  const parser = createParser({
    onEvent: (message) => events.push({ event: message.event ?? 'message', data: JSON.parse(message.data) }),
  });
  const decoder = new TextDecoder();
  try {
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      parser.feed(decoder.decode(chunk, { stream: true }));
      if (options.stopAfter !== undefined && events.length >= options.stopAfter) {
        controller.abort();
        break;
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  }
  return { status: response.status, contentType, events };
}
