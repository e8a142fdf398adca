import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ChatCompletion, ChatCompletionChunk, OpenAiErrorBody } from '../../src/api/openai.ts';
import { startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../support/fake-openai.ts';
import { createKnowledgeApplication } from '../support/knowledge.ts';

// The OpenAI-compatible API driven by the real `openai` SDK, as any OpenAI client would drive it. Offline
// applications answer by extraction; the `lm-4` one goes to the fake vendor, which records what it was sent.

let daemon: TestDaemon;
let vendor: FakeOpenAI;
let offline: { id: string; text: string; pdf: string };
let provider: { id: string };
let openai: OpenAI;

beforeAll(async () => {
  vendor = await startFakeOpenAI();
  daemon = await startTestDaemon({
    config: {
      models: { 'lm-4': { base_url: vendor.baseUrl, model: 'fake-large', api_key_env: 'FAKE_VENDOR_KEY' } },
    },
    env: { FAKE_VENDOR_KEY: 'sk-test-vendor' },
    // Pings between slow chunks, which OpenAI's clients must skip as the comments they are.
    pingIntervalMs: 20,
  });
  offline = await createKnowledgeApplication(daemon, { name: 'Field notes' });
  provider = await createKnowledgeApplication(daemon, {
    name: 'Pirate notes',
    model: 'lm-4',
    system_message: 'Answer like a pirate.',
  });
  // Retries would hide which answer a failure got; the test wants the first one.
  openai = new OpenAI({ baseURL: `${daemon.url}/v1`, apiKey: daemon.apiKey, maxRetries: 0 });
});

afterAll(async () => {
  await daemon?.close();
  await vendor?.close();
});

const question = (content: string): OpenAI.ChatCompletionMessageParam[] => [{ role: 'user', content }];

describe('models', () => {
  test("the account's applications are its models, by application id", async () => {
    const models = [];
    for await (const model of openai.models.list()) models.push(model);
    expect(models.map((model) => model.id).sort()).toEqual([offline.id, provider.id].sort());
    const model = models.find((candidate) => candidate.id === offline.id);
    expect(model).toMatchObject({ object: 'model', owned_by: 'default', name: 'Field notes' });
    expect(model?.created).toBeGreaterThan(1_700_000_000);
    expect(await openai.models.retrieve(offline.id)).toEqual(model);
  });

  test('another account sees none of them', async () => {
    const other = (await daemon.call('POST', '/admin/keys', { account: 'other' })).body.key;
    const stranger = new OpenAI({ baseURL: `${daemon.url}/v1`, apiKey: other, maxRetries: 0 });
    expect((await stranger.models.list()).data).toEqual([]);
    await expect(stranger.models.retrieve(offline.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(
      stranger.chat.completions.create({ model: offline.id, messages: question('When was it built?') }),
    ).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
  });
});

describe('chat completions', () => {
  test("an answer from the application's sources, in OpenAI's shape, with usage and the cited sources", async () => {
    const conversationsBefore = (await daemon.call('GET', '/conversations')).body;
    const completion = await openai.chat.completions.create({
      model: offline.id,
      messages: question('When was the Bell Rock Lighthouse completed?'),
    });
    expect(ChatCompletion.parse(completion)).toEqual(completion);
    expect(completion.model).toBe(offline.id);
    expect(completion.id).toMatch(/^chatcmpl_/);
    const [choice] = completion.choices;
    expect(choice?.finish_reason).toBe('stop');
    const content = choice?.message.content ?? '';
    expect(content).toContain('1810');
    // The cited passages are listed after the answer, by the numbers the answer cites them with.
    expect(content).toMatch(/\n\nSources:\n- \[\d\] Lighthouse notes, page 1$/);
    const cited = Number(/\[(\d)\]/.exec(content)?.[1]);
    expect(content).toContain(`- [${cited}] Lighthouse notes, page 1`);
    const sources = (completion as unknown as { sources: unknown[] }).sources;
    expect(sources).toEqual([
      { source: 'Lighthouse notes', page: 1, score: expect.any(Number), source_id: offline.text },
    ]);
    expect(completion.usage?.prompt_tokens).toBeGreaterThan(50);
    expect(completion.usage?.completion_tokens).toBeGreaterThan(5);
    expect(completion.usage?.total_tokens).toBe(
      (completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0),
    );
    // The client holds the history: nothing is stored as a ckb conversation.
    expect((await daemon.call('GET', '/conversations')).body).toEqual(conversationsBefore);
  });

  test('a PDF answer cites its page', async () => {
    const completion = await openai.chat.completions.create({
      model: offline.id,
      messages: question('Which towns did Mount Vesuvius destroy?'),
    });
    const content = completion.choices[0]?.message.content ?? '';
    expect(content).toContain('Pompeii');
    expect(content).toMatch(/- \[\d\] volcanoes\.pdf, page 2/);
  });

  test('the messages are the conversation: a follow-up is retrieved with the question it follows', async () => {
    const first = await openai.chat.completions.create({
      model: offline.id,
      messages: question('Tell me about the Bell Rock Lighthouse.'),
    });
    const reply = first.choices[0]?.message.content ?? '';
    const followUp = await openai.chat.completions.create({
      model: offline.id,
      messages: [
        ...question('Tell me about the Bell Rock Lighthouse.'),
        { role: 'assistant', content: reply },
        { role: 'user', content: 'and who funded it?' },
      ],
    });
    expect(followUp.choices[0]?.message.content).toContain('Northern Lighthouse Board');
  });

  test("system messages add to the application's, and earlier replies reach the model without their source lists", async () => {
    const first = await openai.chat.completions.create({
      model: provider.id,
      messages: question('Where is the Bell Rock?'),
    });
    const earlier = first.choices[0]?.message.content ?? '';
    expect(earlier).toContain('\n\nSources:\n- [1] ');
    const before = vendor.chatRequests().length;
    await openai.chat.completions.create({
      model: provider.id,
      messages: [
        { role: 'system', content: 'Keep it under twenty words.' },
        ...question('Where is the Bell Rock?'),
        { role: 'assistant', content: earlier },
        { role: 'developer', content: 'Mention the year.' },
        { role: 'user', content: [{ type: 'text', text: 'When was the lighthouse on it completed?' }] },
      ],
    });
    const sent = vendor.chatRequests().slice(before);
    expect(sent).toHaveLength(1);
    const messages = (sent[0]!.body as { messages: { role: string; content: string }[] }).messages;
    const system = messages[0]?.content ?? '';
    expect(system.indexOf('Answer like a pirate.')).toBe(0);
    expect(system).toContain('Keep it under twenty words.');
    expect(system).toContain('Mention the year.');
    const assistant = messages.find((message) => message.role === 'assistant');
    expect(assistant?.content).toBe(earlier.slice(0, earlier.indexOf('\n\nSources:')));
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'When was the lighthouse on it completed?' });
  });

  test('streamed: chunks that add up to the plain answer, the sources on the last, usage when asked, then [DONE]', async () => {
    const messages = question('When was the Bell Rock Lighthouse completed?');
    const plain = await openai.chat.completions.create({ model: offline.id, messages });
    const stream = await openai.chat.completions.create({
      model: offline.id,
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    for (const chunk of chunks) expect(ChatCompletionChunk.parse(chunk)).toEqual(chunk);
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: 'assistant', content: '' });
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    expect(text).toBe(plain.choices[0]?.message.content);
    expect(chunks.length).toBeGreaterThan(4);

    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage).toEqual(plain.usage);
    for (const chunk of chunks.slice(0, -1)) expect(chunk.usage).toBeNull();
    const finishing = chunks.at(-2);
    expect(finishing?.choices[0]?.finish_reason).toBe('stop');
    expect((finishing as unknown as { sources: unknown }).sources).toEqual(
      (plain as unknown as { sources: unknown }).sources,
    );

    const raw = await fetch(`${daemon.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${daemon.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: offline.id, messages, stream: true }),
    });
    expect(raw.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const body = await raw.text();
    expect(body.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(body).not.toContain('"usage"');
  });

  test('streamed without include_usage: no usage field at all', async () => {
    const stream = await openai.chat.completions.create({
      model: offline.id,
      messages: question('Where is Mount Etna?'),
      stream: true,
    });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.every((chunk) => chunk.usage === undefined)).toBe(true);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toContain('Sicily');
  });
});

describe('a slow model', () => {
  test("pings while it thinks are skipped by OpenAI's client; leaving the stream aborts the model's request", async () => {
    // Later tests only need the vendor to fail, so this script can stay.
    vendor.script(() => ({ content: 'one two three four five six seven eight nine ten eleven twelve' }));
    vendor.enqueue({ type: 'slow', chunkDelayMs: 60 });
    const raw = await fetch(`${daemon.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${daemon.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: provider.id, messages: question('Count slowly.'), stream: true }),
    });
    expect(await raw.text()).toContain('\n: ping\n');

    vendor.enqueue({ type: 'slow', chunkDelayMs: 60 });
    const whole = await openai.chat.completions.create({
      model: provider.id,
      messages: question('Count slowly.'),
      stream: true,
    });
    let text = '';
    for await (const chunk of whole) text += chunk.choices[0]?.delta.content ?? '';
    expect(
      text.startsWith('one two three four five six seven eight nine ten eleven twelve\n\nSources:\n'),
    ).toBe(true);

    vendor.enqueue({ type: 'slow', chunkDelayMs: 100 });
    const index = vendor.requests.length;
    const left = await openai.chat.completions.create({
      model: provider.id,
      messages: question('Count slowly.'),
      stream: true,
    });
    for await (const chunk of left) if (chunk.choices[0]?.delta.content) break;
    const upstream = await vendor.settled(index);
    expect(upstream.aborted).toBe(true);
    expect(upstream.completed).toBe(false);
  });
});

describe("errors in OpenAI's shape", () => {
  test('an unknown model is 404 model_not_found, streamed or not, before any stream opens', async () => {
    for (const stream of [false, true]) {
      const failure = await openai.chat.completions
        .create({ model: 'app_00000000000000000000000000', messages: question('Anyone?'), stream })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(failure).toBeInstanceOf(OpenAI.NotFoundError);
      expect(failure).toMatchObject({
        status: 404,
        type: 'invalid_request_error',
        code: 'model_not_found',
        param: 'model',
      });
      expect((failure as Error).message).toContain('app_00000000000000000000000000 does not exist');
    }
  });

  test('a wrong key is 401 invalid_api_key', async () => {
    const intruder = new OpenAI({ baseURL: `${daemon.url}/v1`, apiKey: 'ckb_wrong', maxRetries: 0 });
    await expect(intruder.models.list()).rejects.toMatchObject({ status: 401, code: 'invalid_api_key' });
    await expect(
      intruder.chat.completions.create({ model: offline.id, messages: question('Hello?') }),
    ).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    const bare = await fetch(`${daemon.url}/v1/models`);
    expect(bare.status).toBe(401);
    expect(OpenAiErrorBody.parse(await bare.json()).error).toMatchObject({
      type: 'invalid_request_error',
      code: 'invalid_api_key',
      param: null,
    });
  });

  test('bad requests are 400 naming the field', async () => {
    const cases: [unknown, string, RegExp][] = [
      [{ model: offline.id, messages: [] }, 'messages', /must not be empty/],
      [
        { model: offline.id, messages: [...question('Hi'), { role: 'assistant', content: 'Hello' }] },
        'messages',
        /must end with a user message/,
      ],
      [{ model: offline.id, messages: [{ role: 'tool', content: 'x' }] }, 'messages.0.role', /tool calls/],
      [
        { model: offline.id, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: {} }] }] },
        'messages.0.content',
        /text parts \(images and other parts are not supported\)/,
      ],
      [{ messages: question('Hi') }, 'model', /^model: /],
    ];
    for (const [body, param, message] of cases) {
      const response = await daemon.call('POST', '/v1/chat/completions', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      const { error } = OpenAiErrorBody.parse(response.body);
      expect(error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_request', param });
      expect(error.message).toMatch(message);
    }
    await expect(
      openai.chat.completions.create({ model: offline.id, messages: [{ role: 'user', content: '   ' }] }),
    ).rejects.toBeInstanceOf(OpenAI.BadRequestError);
  });

  test('unknown paths and methods under /v1 answer in the same shape', async () => {
    const missing = await daemon.call('GET', '/v1/embeddings');
    expect(missing.status).toBe(404);
    expect(OpenAiErrorBody.parse(missing.body).error.code).toBe('not_found');
    const method = await daemon.call('GET', '/v1/chat/completions');
    expect(method.status).toBe(405);
    expect(method.headers.get('allow')).toBe('POST');
    expect(OpenAiErrorBody.parse(method.body).error.code).toBe('method_not_allowed');
  });

  test("the model vendor's failure is a 502 server_error, or an error event mid-stream", async () => {
    vendor.enqueue({ type: 'status', status: 400, message: 'the vendor refused' });
    await expect(
      openai.chat.completions.create({ model: provider.id, messages: question('Where is the Bell Rock?') }),
    ).rejects.toMatchObject({ status: 502, type: 'server_error', code: 'upstream_error' });

    vendor.enqueue({ type: 'status', status: 400, message: 'the vendor refused' });
    const stream = await openai.chat.completions.create({
      model: provider.id,
      messages: question('Where is the Bell Rock?'),
      stream: true,
    });
    const received: string[] = [];
    const failure = await (async () => {
      for await (const chunk of stream) received.push(chunk.choices[0]?.delta.content ?? '');
    })().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect(failure).toMatchObject({ type: 'server_error', code: 'upstream_error' });
    expect((failure as Error).message).toContain('fake-large');
    expect(received).toEqual(['']);
  });
});
