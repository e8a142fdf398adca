import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeOpenAI, startFakeOpenAI } from '../support/fake-openai.ts';

describe('fake OpenAI vendor, driven by the real SDK', () => {
  let vendor: FakeOpenAI;
  let client: OpenAI;

  beforeEach(async () => {
    vendor = await startFakeOpenAI();
    client = new OpenAI({ baseURL: vendor.baseUrl, apiKey: 'sk-test', maxRetries: 0 });
  });
  afterEach(async () => {
    await vendor.close();
  });

  it('answers a JSON chat completion and records the request', async () => {
    const completion = await client.chat.completions.create({
      model: 'tiny',
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(completion.choices[0]?.message.content).toBe('You said: hello');
    expect(completion.usage?.total_tokens).toBeGreaterThan(0);
    expect(vendor.requests[0]?.headers.authorization).toBe('Bearer sk-test');
    expect(vendor.requests[0]?.body).toMatchObject({ model: 'tiny' });
  });

  it('streams scripted deltas and a final usage chunk', async () => {
    vendor.script(() => ({
      content: 'one two',
      chunks: ['one', ' two'],
      usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 },
    }));
    const stream = await client.chat.completions.create({
      model: 'tiny',
      messages: [{ role: 'user', content: 'count' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const deltas: string[] = [];
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta.content;
      if (delta) deltas.push(delta);
      if (chunk.usage) usage = chunk.usage;
    }
    expect(deltas).toEqual(['one', ' two']);
    expect(usage).toEqual({ prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 });
  });

  it('answers with queued error statuses, then normally', async () => {
    vendor.enqueue({ type: 'status', status: 429, retryAfterSeconds: 0 });
    await expect(
      client.chat.completions.create({ model: 'tiny', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toMatchObject({ status: 429 });
    const completion = await client.chat.completions.create({
      model: 'tiny',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(completion.choices[0]?.message.content).toBe('You said: x');
  });

  it('records that the client aborted a hanging request', async () => {
    vendor.enqueue({ type: 'hang' });
    const controller = new AbortController();
    const pending = client.chat.completions.create(
      { model: 'tiny', messages: [{ role: 'user', content: 'x' }] },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toThrow();
    const recorded = await vendor.settled(0);
    expect(recorded.aborted).toBe(true);
    expect(recorded.completed).toBe(false);
  });

  it('returns deterministic embeddings of the requested dimensions, base64 or float', async () => {
    const first = await client.embeddings.create({
      model: 'embed',
      input: ['red apple', 'red apple'],
      dimensions: 32,
    });
    const floats = await client.embeddings.create({
      model: 'embed',
      input: 'red apple',
      dimensions: 32,
      encoding_format: 'float',
    });
    expect(first.data).toHaveLength(2);
    expect(first.data[0]?.embedding).toHaveLength(32);
    expect([...(first.data[0]?.embedding ?? [])]).toEqual([...(first.data[1]?.embedding ?? [])]);
    expect(floats.data[0]?.embedding[0]).toBeCloseTo(first.data[0]?.embedding[0] ?? Number.NaN, 5);
    expect(first.usage.prompt_tokens).toBeGreaterThan(0);
  });
});
