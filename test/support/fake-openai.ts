import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { drainedOrClosed } from '../../daemon/routes/sse.ts';

/**
 * A fake model vendor: a real HTTP server speaking the OpenAI wire protocol, so the real `openai` SDK
 * (and anything else that speaks it) can be tested end to end without a network. It is the only fake
 * the project allows: our own modules are never mocked.
 *
 *   const vendor = await startFakeOpenAI();
 *   const client = new OpenAI({ baseURL: vendor.baseUrl, apiKey: 'test' });
 *   vendor.enqueue({ type: 'status', status: 429, retryAfterSeconds: 0 }); // next request gets a 429
 *   ...
 *   await vendor.close();
 */

/** What the fake does with one request; queued behaviours are consumed one per request, in order. */
export type FakeBehaviour =
  /** Answers with this HTTP error status (OpenAI error body); `retry-after` header when given. */
  | { type: 'status'; status: number; retryAfterSeconds?: number; message?: string }
  /** Never answers: the request stays open until the client gives up. */
  | { type: 'hang' }
  /** Answers normally but waits this long before each streamed chunk (or before a JSON reply). */
  | { type: 'slow'; chunkDelayMs: number }
  /** Streams this many content chunks, then destroys the connection without `[DONE]`. */
  | { type: 'fail-mid-stream'; afterChunks: number };

export interface FakeChatMessage {
  role: string;
  content: string | null | Array<{ type: string; text?: string }>;
}

export interface FakeChatRequest {
  model: string;
  messages: FakeChatMessage[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean } | null;
  [field: string]: unknown;
}

export interface FakeUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/**
 * A scripted reply. `chunks` (when given) are the exact streamed content deltas; otherwise `content` is
 * split into word-sized deltas. `usage: null` makes the fake report no usage at all, as some local
 * servers do; without `usage`, the fake counts roughly (characters / 4 for the prompt, one per chunk).
 */
export interface FakeReply {
  content: string;
  chunks?: string[];
  usage?: FakeUsage | null;
}

export type FakeReplyScript = (request: FakeChatRequest) => string | FakeReply;

export interface RecordedRequest {
  /** Content chunks the fake has written so far, waiting as a real server does when its client reads slowly. */
  chunksWritten: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (or the raw text when it is not JSON). */
  body: unknown;
  behaviour: FakeBehaviour | undefined;
  /** The client closed the connection before the fake finished its answer. */
  aborted: boolean;
  /** The fake sent its whole answer. */
  completed: boolean;
}

export interface FakeOpenAI {
  /** e.g. `http://127.0.0.1:43123/v1`: pass it as the SDK's `baseURL`. */
  baseUrl: string;
  /** Every request received, in arrival order. */
  requests: RecordedRequest[];
  /** Requests to POST /v1/chat/completions only. */
  chatRequests(): RecordedRequest[];
  /** Behaviours for the next requests, one per request, in order. */
  enqueue(...behaviours: FakeBehaviour[]): void;
  /** Sets how chat completions are answered (default: `You said: <last user message>`). */
  script(reply: FakeReplyScript): void;
  /** Resolves once the request at `index` is finished, aborted or not (for asserting on aborts). */
  settled(index: number): Promise<RecordedRequest>;
  close(): Promise<void>;
}

export interface FakeOpenAIOptions {
  reply?: FakeReplyScript;
  /** Default dimensions of embeddings when the request names none. */
  embeddingDimensions?: number;
}

const defaultEmbeddingDimensions = 1536;
/** Responses the fake itself cut off mid-stream, which must not be recorded as client aborts. */
const cutResponses = new WeakSet<ServerResponse>();

export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const requests: RecordedRequest[] = [];
  const queue: FakeBehaviour[] = [];
  const waiters = new Map<number, Array<(request: RecordedRequest) => void>>();
  const openResponses = new Set<ServerResponse>();
  let replyScript: FakeReplyScript = options.reply ?? echoReply;
  const dimensions = options.embeddingDimensions ?? defaultEmbeddingDimensions;

  const settle = (index: number): void => {
    const request = requests[index];
    if (!request) return;
    for (const wake of waiters.get(index) ?? []) wake(request);
    waiters.delete(index);
  };

  const server = createServer(async (incoming, response) => {
    const text = await readBody(incoming);
    const record: RecordedRequest = {
      method: incoming.method ?? 'GET',
      path: (incoming.url ?? '/').split('?')[0] ?? '/',
      headers: incoming.headers,
      body: parseJson(text),
      behaviour: queue.shift(),
      aborted: false,
      completed: false,
      chunksWritten: 0,
    };
    const index = requests.push(record) - 1;
    openResponses.add(response);
    // `close` on the response fires both after a normal end and after the client went away;
    // only the latter leaves the response unfinished.
    response.on('close', () => {
      openResponses.delete(response);
      if (!response.writableFinished && !cutResponses.has(response)) record.aborted = true;
      settle(index);
    });
    try {
      await route(record, response, { replyScript, dimensions });
    } catch (error) {
      if (!response.headersSent) sendError(response, 500, `fake vendor failed: ${String(error)}`);
      else response.destroy();
    }
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    chatRequests: () => requests.filter((request) => request.path.endsWith('/chat/completions')),
    enqueue: (...behaviours) => {
      queue.push(...behaviours);
    },
    script: (reply) => {
      replyScript = reply;
    },
    settled: (index) => {
      const request = requests[index];
      if (request && (request.completed || request.aborted)) return Promise.resolve(request);
      return new Promise((resolve) => {
        waiters.set(index, [...(waiters.get(index) ?? []), resolve]);
      });
    },
    close: async () => {
      for (const response of openResponses) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

interface RouteContext {
  replyScript: FakeReplyScript;
  dimensions: number;
}

async function route(
  record: RecordedRequest,
  response: ServerResponse,
  context: RouteContext,
): Promise<void> {
  const behaviour = record.behaviour;
  if (behaviour?.type === 'hang') return;
  if (behaviour?.type === 'status') {
    const headers: Record<string, string> = {};
    if (behaviour.retryAfterSeconds !== undefined)
      headers['retry-after'] = String(behaviour.retryAfterSeconds);
    sendError(response, behaviour.status, behaviour.message ?? `fake status ${behaviour.status}`, headers);
    record.completed = true;
    return;
  }
  if (record.method !== 'POST') {
    sendError(response, 405, `${record.method} not allowed`);
    return;
  }
  if (record.path === '/v1/chat/completions') return chat(record, response, context);
  if (record.path === '/v1/embeddings') return embeddings(record, response, context.dimensions);
  sendError(response, 404, `unknown path ${record.path}`);
}

async function chat(record: RecordedRequest, response: ServerResponse, context: RouteContext): Promise<void> {
  const request = record.body as FakeChatRequest;
  if (!request || typeof request.model !== 'string' || !Array.isArray(request.messages)) {
    sendError(response, 400, 'model and messages are required');
    record.completed = true;
    return;
  }
  const scripted = context.replyScript(request);
  const reply: FakeReply = typeof scripted === 'string' ? { content: scripted } : scripted;
  const chunks = reply.chunks ?? splitIntoDeltas(reply.content);
  const usage = reply.usage === undefined ? estimateUsage(request, chunks.length) : reply.usage;
  const delay = record.behaviour?.type === 'slow' ? record.behaviour.chunkDelayMs : 0;
  const id = `chatcmpl-fake${record.path.length}${Date.now()}`;
  const created = Math.floor(Date.now() / 1000);

  if (!request.stream) {
    await sleep(delay);
    if (response.destroyed) return;
    sendJson(response, 200, {
      id,
      object: 'chat.completion',
      created,
      model: request.model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: reply.content },
          finish_reason: 'stop',
          logprobs: null,
        },
      ],
      ...(usage ? { usage } : {}),
    });
    record.completed = true;
    return;
  }

  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const base = { id, object: 'chat.completion.chunk', created, model: request.model };
  const write = async (payload: unknown): Promise<void> => {
    if (!response.write(`data: ${JSON.stringify(payload)}\n\n`) && !response.destroyed)
      await drainedOrClosed(response);
  };
  await write({
    ...base,
    choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
  });
  const failAfter = record.behaviour?.type === 'fail-mid-stream' ? record.behaviour.afterChunks : Infinity;
  for (const [position, chunk] of chunks.entries()) {
    if (position >= failAfter) {
      await cutOff(response);
      return;
    }
    await sleep(delay);
    if (response.destroyed) return;
    await write({ ...base, choices: [{ index: 0, delta: { content: chunk }, finish_reason: null }] });
    record.chunksWritten += 1;
  }
  await write({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
  if (usage && request.stream_options?.include_usage) await write({ ...base, choices: [], usage });
  response.end('data: [DONE]\n\n');
  record.completed = true;
}

function embeddings(record: RecordedRequest, response: ServerResponse, defaultDimensions: number): void {
  const body = record.body as {
    model?: string;
    input?: unknown;
    dimensions?: number;
    encoding_format?: string;
  };
  const inputs = typeof body?.input === 'string' ? [body.input] : body?.input;
  if (!Array.isArray(inputs) || inputs.some((input) => typeof input !== 'string') || !body.model) {
    sendError(response, 400, 'model and input (a string or an array of strings) are required');
    record.completed = true;
    return;
  }
  const dimensions = body.dimensions ?? defaultDimensions;
  const data = (inputs as string[]).map((input, index) => {
    const vector = fakeEmbedding(input, dimensions);
    return {
      object: 'embedding',
      index,
      embedding:
        body.encoding_format === 'base64' ? Buffer.from(vector.buffer).toString('base64') : [...vector],
    };
  });
  const promptTokens = (inputs as string[]).reduce((sum, input) => sum + roughTokens(input), 0);
  sendJson(response, 200, {
    object: 'list',
    data,
    model: body.model,
    usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
  });
  record.completed = true;
}

/**
 * Deterministic unit vector: each lower-cased word adds weight to a few hashed dimensions, so texts
 * sharing words are close (cosine) and the same text always gives the same vector.
 */
export function fakeEmbedding(text: string, dimensions: number): Float32Array {
  const vector = new Float32Array(dimensions);
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [text];
  for (const word of words) {
    const digest = createHash('sha256').update(word).digest();
    for (let slot = 0; slot < 4; slot++) {
      const position = digest.readUInt32LE(slot * 4) % dimensions;
      vector[position] = (vector[position] ?? 0) + ((digest[16 + slot] ?? 0) & 1 ? 1 : -1);
    }
  }
  const norm = Math.hypot(...vector) || 1;
  for (let position = 0; position < dimensions; position++) vector[position] = (vector[position] ?? 0) / norm;
  return vector;
}

/**
 * Ends the connection without the closing chunk, as a crashed server would; the chunks already
 * written are flushed first so that the client does receive them.
 */
async function cutOff(response: ServerResponse): Promise<void> {
  cutResponses.add(response);
  await new Promise<void>((resolve) => response.write('', () => resolve()));
  response.socket?.end();
}

function echoReply(request: FakeChatRequest): string {
  const lastUser = [...request.messages].reverse().find((message) => message.role === 'user');
  return `You said: ${messageText(lastUser?.content ?? '')}`;
}

function messageText(content: FakeChatMessage['content']): string {
  if (typeof content === 'string') return content;
  if (!content) return '';
  return content.map((part) => part.text ?? '').join('');
}

function splitIntoDeltas(content: string): string[] {
  return content.match(/\S+\s*|\s+/g) ?? [content];
}

function estimateUsage(request: FakeChatRequest, completionTokens: number): FakeUsage {
  const promptTokens = request.messages.reduce(
    (sum, message) => sum + roughTokens(messageText(message.content)),
    0,
  );
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
}

function roughTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

function sendError(
  response: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  const type = status === 429 ? 'rate_limit_error' : status >= 500 ? 'server_error' : 'invalid_request_error';
  sendJson(response, status, { error: { message, type, param: null, code: null } }, headers);
}

function sendJson(
  response: ServerResponse,
  status: number,
  payload: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(payload));
}

function readBody(incoming: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    incoming.on('data', (part: Buffer) => parts.push(part));
    incoming.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    incoming.on('error', reject);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function sleep(milliseconds: number): Promise<void> {
  if (milliseconds <= 0) return Promise.resolve();
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}
