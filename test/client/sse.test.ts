import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidResponseError, readServerSentEvents, toStreamEvent } from '../../src/client/index.ts';

async function collect(chunks: (string | Uint8Array)[]) {
  async function* source() {
    yield* chunks;
  }
  const events = [];
  for await (const event of readServerSentEvents(source())) events.push(event);
  return events;
}

const reply = {
  conversation_id: 'conv_1',
  title: 'Tomatoes',
  message: 'Six hours — of sun ☀️.',
  sources: [{ source: 'garden.md', page: 1, score: 0.9, source_id: 'src_1' }],
  usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
};

const wire = [
  ': ping\n\n',
  'event: chunk\ndata: {"delta":"Six hours — "}\n\n',
  'event: chunk\ndata: {"delta":"of sun ☀️."}\n\n',
  `event: done\ndata: ${JSON.stringify(reply)}\n\n`,
].join('');

describe('readServerSentEvents', () => {
  it('reads whole events', async () => {
    const events = await collect([wire]);
    expect(events.map((event) => event.event)).toEqual(['chunk', 'chunk', 'done']);
    expect(JSON.parse(events[2]?.data ?? '')).toEqual(reply);
  });

  it('gives the same events however the bytes are split, even inside a UTF-8 character', async () => {
    const bytes = new TextEncoder().encode(wire);
    const expected = await collect([wire]);
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 40 }),
        async (cuts) => {
          const points = [0, ...cuts.sort((a, b) => a - b), bytes.length];
          const pieces = points.slice(1).map((end, index) => bytes.slice(points[index], end));
          expect(await collect(pieces)).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('accepts CRLF line endings and multi-line data', async () => {
    const events = await collect(['event: chunk\r\ndata: {"delta":\r\ndata: "a"}\r\n\r\n']);
    expect(events).toEqual([{ event: 'chunk', data: '{"delta":\n"a"}', id: undefined }]);
  });
});

describe('toStreamEvent', () => {
  it('checks each event against the contract', () => {
    expect(toStreamEvent({ event: 'chunk', data: '{"delta":"hi"}' })).toEqual({
      event: 'chunk',
      data: { delta: 'hi' },
    });
    expect(toStreamEvent({ event: 'done', data: JSON.stringify(reply) })).toEqual({
      event: 'done',
      data: reply,
    });
    expect(
      toStreamEvent({
        event: 'error',
        data: '{"error":{"type":"upstream_error","message":"provider down"}}',
      }),
    ).toEqual({ event: 'error', data: { error: { type: 'upstream_error', message: 'provider down' } } });
  });

  it('skips events it does not know, so newer daemons stay readable', () => {
    expect(toStreamEvent({ event: 'progress', data: '{}' })).toBeUndefined();
    expect(toStreamEvent({ data: '{}' })).toBeUndefined();
  });

  it('rejects malformed data', () => {
    expect(() => toStreamEvent({ event: 'chunk', data: 'not json' })).toThrow(InvalidResponseError);
    expect(() => toStreamEvent({ event: 'chunk', data: '{"delta":3}' })).toThrow(/invalid "chunk" event/);
    expect(() => toStreamEvent({ event: 'done', data: '{"message":"x"}' })).toThrow(InvalidResponseError);
  });
});
