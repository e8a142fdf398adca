import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createResponder, describeModels, UpstreamError } from '../../daemon/respond/index.ts';
import { createProviderResponder, type ProviderSettings } from '../../daemon/respond/provider.ts';
import { countTokens } from '../../daemon/respond/tokens.ts';
import type { ContextPassage, ReplyEvent, ReplyRequest, Responder } from '../../daemon/respond/types.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../support/fake-openai.ts';

const passages: ContextPassage[] = [
  {
    number: 1,
    sourceName: 'report.pdf',
    sourceId: 'src_1',
    page: 3,
    text: 'Revenue grew 12% in 2024.',
    score: 0.9,
  },
  {
    number: 2,
    sourceName: 'notes.md',
    sourceId: 'src_2',
    page: 1,
    text: 'The office moved to Lyon.',
    score: 0.4,
  },
];

const request: ReplyRequest = {
  model: 'lm-4',
  systemMessage: 'You are the finance assistant.',
  question: 'By how much did the revenue grow in 2024?',
  history: [],
  passages,
};

async function collect(
  events: AsyncGenerator<ReplyEvent>,
): Promise<{ text: string; deltas: string[]; finish?: ReplyEvent }> {
  const deltas: string[] = [];
  let finish: ReplyEvent | undefined;
  for await (const event of events) {
    if (event.type === 'text-delta') deltas.push(event.delta);
    else finish = event;
  }
  return { text: deltas.join(''), deltas, ...(finish ? { finish } : {}) };
}

function signal(): AbortSignal {
  return new AbortController().signal;
}

describe('provider responder against the fake vendor', () => {
  let vendor: FakeOpenAI;
  let settings: ProviderSettings;

  beforeEach(async () => {
    vendor = await startFakeOpenAI();
    settings = {
      label: 'fake',
      baseUrl: vendor.baseUrl,
      model: 'fake-large',
      apiKey: 'sk-secret-test-key-0123456789',
      contextTokens: 8192,
      replyTokens: 512,
      firstTokenTimeoutMs: 2000,
      idleTimeoutMs: 2000,
      maxRetries: 3,
      retryDelayMs: 5,
    };
  });
  afterEach(async () => {
    await vendor.close();
  });

  it('streams the reply, reports the provider usage and the cited passages', async () => {
    vendor.script(() => ({
      content: 'Revenue grew 12% [1].',
      chunks: ['Revenue ', 'grew ', '12% ', '[1].'],
      usage: { prompt_tokens: 120, completion_tokens: 6, total_tokens: 126 },
    }));
    const responder = createResponder(
      { models: { 'lm-4': { base_url: vendor.baseUrl, model: 'fake-large', api_key_env: 'FAKE_KEY' } } },
      { FAKE_KEY: 'sk-from-env' },
    );
    const result = await collect(responder.reply(request, { signal: signal() }));

    expect(result.deltas).toEqual(['Revenue ', 'grew ', '12% ', '[1].']);
    expect(result.finish).toEqual({
      type: 'finish',
      usage: { prompt_tokens: 120, completion_tokens: 6, total_tokens: 126 },
      usedPassages: [1],
    });
    const sent = vendor.chatRequests()[0];
    expect(sent?.headers.authorization).toBe('Bearer sk-from-env');
    expect(sent?.body).toMatchObject({
      model: 'fake-large',
      stream: true,
      stream_options: { include_usage: true },
    });
    const messages =
      (sent?.body as { messages: Array<{ role: string; content: string }> } | undefined)?.messages ?? [];
    expect(messages[0]?.content).toContain('You are the finance assistant.');
    expect(messages[1]?.content).toContain('[1] (source: report.pdf, page 3)');
    expect(messages.at(-1)).toEqual({ role: 'user', content: request.question });
  });

  it('counts usage with o200k when the provider reports none, and cites all passages when none are cited', async () => {
    vendor.script(() => ({ content: 'It grew by twelve percent.', usage: null }));
    const result = await collect(createProviderResponder(settings).reply(request, { signal: signal() }));

    expect(result.finish?.type).toBe('finish');
    if (result.finish?.type !== 'finish') return;
    expect(result.finish.usage.completion_tokens).toBe(countTokens('It grew by twelve percent.'));
    expect(result.finish.usage.prompt_tokens).toBeGreaterThan(20);
    expect(result.finish.usage.total_tokens).toBe(
      result.finish.usage.prompt_tokens + result.finish.usage.completion_tokens,
    );
    expect(result.finish.usedPassages).toEqual([1, 2]);
  });

  it('retries 429 and 500 answers before the first token, then streams', async () => {
    vendor.enqueue(
      { type: 'status', status: 429, retryAfterSeconds: 0 },
      { type: 'status', status: 500 },
      { type: 'fail-mid-stream', afterChunks: 0 },
    );
    const result = await collect(createProviderResponder(settings).reply(request, { signal: signal() }));

    expect(result.text).toBe('You said: By how much did the revenue grow in 2024?');
    expect(vendor.chatRequests()).toHaveLength(4);
  });

  it('gives up after its retries with an UpstreamError naming provider and model, never the key', async () => {
    vendor.enqueue(...Array.from({ length: 4 }, () => ({ type: 'status' as const, status: 503 })));
    const error = await collect(createProviderResponder(settings).reply(request, { signal: signal() })).catch(
      (caught: unknown) => caught,
    );

    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).message).toMatch(/fake \(model fake-large\).*503/);
    expect((error as UpstreamError).message).not.toContain('sk-secret');
    expect(vendor.chatRequests()).toHaveLength(4);
  });

  it('does not retry client errors such as 401', async () => {
    vendor.enqueue({
      type: 'status',
      status: 401,
      message: 'Incorrect API key provided: sk-secret-test-key-0123456789',
    });
    const error = await collect(createProviderResponder(settings).reply(request, { signal: signal() })).catch(
      (caught: unknown) => caught,
    );

    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).message).toContain('401');
    expect((error as UpstreamError).message).not.toContain('sk-secret');
    expect(vendor.chatRequests()).toHaveLength(1);
  });

  it('ends the stream with an UpstreamError, without retrying, when it fails after the first token', async () => {
    vendor.enqueue({ type: 'fail-mid-stream', afterChunks: 2 });
    const deltas: string[] = [];
    const error = await (async () => {
      for await (const event of createProviderResponder(settings).reply(request, { signal: signal() })) {
        if (event.type === 'text-delta') deltas.push(event.delta);
      }
    })().catch((caught: unknown) => caught);

    expect(deltas.join('')).toBe('You said: ');
    expect(error).toBeInstanceOf(UpstreamError);
    expect(vendor.chatRequests()).toHaveLength(1);
  });

  it('aborts the upstream request when the caller aborts mid-stream', async () => {
    vendor.enqueue({ type: 'slow', chunkDelayMs: 40 });
    const controller = new AbortController();
    const events = createProviderResponder(settings).reply(request, { signal: controller.signal });
    const first = await events.next();
    controller.abort();
    const outcome = await events.next().catch((caught: unknown) => caught);

    expect(first.value).toMatchObject({ type: 'text-delta' });
    expect(outcome).not.toBeInstanceOf(UpstreamError);
    expect((await vendor.settled(0)).aborted).toBe(true);
  });

  it('aborts the upstream request when the consumer stops reading', async () => {
    vendor.enqueue({ type: 'slow', chunkDelayMs: 40 });
    for await (const event of createProviderResponder(settings).reply(request, { signal: signal() })) {
      if (event.type === 'text-delta') break;
    }
    const recorded = await vendor.settled(0);

    expect(recorded.aborted).toBe(true);
    expect(recorded.completed).toBe(false);
  });

  it('times out a hanging provider, retries once, then fails with an UpstreamError', async () => {
    vendor.enqueue({ type: 'hang' }, { type: 'hang' });
    const responder = createProviderResponder({ ...settings, firstTokenTimeoutMs: 150, maxRetries: 1 });
    const error = await collect(responder.reply(request, { signal: signal() })).catch(
      (caught: unknown) => caught,
    );

    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).message).toContain('no answer within 150 ms');
    expect(vendor.chatRequests()).toHaveLength(2);
    expect((await vendor.settled(0)).aborted).toBe(true);
  });

  it('retries an unreachable endpoint, then fails with an UpstreamError', async () => {
    const closed = await startFakeOpenAI();
    await closed.close();
    const responder = createProviderResponder({
      ...settings,
      label: closed.baseUrl,
      baseUrl: closed.baseUrl,
    });
    const error = await collect(responder.reply(request, { signal: signal() })).catch(
      (caught: unknown) => caught,
    );

    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).message).toMatch(/127\.0\.0\.1.*fake-large/);
  });

  it('asks for a title with a plain JSON completion and tidies it', async () => {
    vendor.script(() => '"Revenue Growth In 2024 And What Drove It Most."');
    const title = await createProviderResponder(settings).title(
      { model: 'lm-4', message: 'How much did revenue grow?', passages },
      { signal: signal() },
    );

    expect(title).toBe('Revenue Growth In 2024 And What Drove It');
    expect(vendor.chatRequests()[0]?.body).not.toHaveProperty('stream', true);
  });
});

describe('model mapping', () => {
  let vendor: FakeOpenAI;

  beforeEach(async () => {
    vendor = await startFakeOpenAI();
  });
  afterEach(async () => {
    await vendor.close();
  });

  async function replyText(responder: Responder, model: 'lm-4' | 'lm-3.5-turbo'): Promise<string> {
    return (await collect(responder.reply({ ...request, model }, { signal: signal() }))).text;
  }

  it('serves an unmapped name offline while the mapped one goes to its provider', async () => {
    const responder = createResponder(
      { models: { 'lm-4': { base_url: vendor.baseUrl, model: 'local-llama' } } },
      {},
    );

    expect(await replyText(responder, 'lm-4')).toBe('You said: By how much did the revenue grow in 2024?');
    expect(await replyText(responder, 'lm-3.5-turbo')).toContain('Revenue grew 12% in 2024. [1]');
    expect(vendor.chatRequests()).toHaveLength(1);
    expect(vendor.chatRequests()[0]?.body).toMatchObject({ model: 'local-llama' });
  });

  it('maps both names to the documented OpenAI defaults when OPENAI_API_KEY is set', () => {
    expect(describeModels({}, { OPENAI_API_KEY: 'sk-x' })).toEqual({
      'lm-3.5-turbo': 'gpt-4.1-mini at https://api.openai.com/v1',
      'lm-4': 'gpt-4.1 at https://api.openai.com/v1',
    });
    expect(describeModels({}, {})).toEqual({
      'lm-3.5-turbo': 'offline (extractive)',
      'lm-4': 'offline (extractive)',
    });
  });

  it('fails with an UpstreamError naming the variable when the configured key is missing', async () => {
    const responder = createResponder(
      {
        models: {
          'lm-4': { base_url: vendor.baseUrl, model: 'remote', api_key_env: 'CKB_TEST_MISSING_KEY' },
        },
      },
      {},
    );
    const error = await replyText(responder, 'lm-4').catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).message).toContain('CKB_TEST_MISSING_KEY');
    expect(vendor.chatRequests()).toHaveLength(0);
  });
});
