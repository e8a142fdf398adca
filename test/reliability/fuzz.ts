import fc from 'fast-check';
import { z } from 'zod';
import { ENDPOINTS, type Endpoint } from '../../src/api/endpoints.ts';
import { type TestDaemon, waitForSource } from '../support/daemon.ts';
import { isPromisedError } from './support.ts';

/** Ids that exist in the fuzzed daemon, by path prefix, so bodies reach validation behind a real lookup. */
export interface KnownIds {
  application: string;
  source: string;
  conversation: string;
}

export interface FuzzRequest {
  endpoint: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Uint8Array | undefined;
}

export interface FuzzOutcome {
  requests: number;
  byStatus: Record<string, number>;
  /** Requests answered with a 5xx or with an error body outside the contract's shape. */
  failures: { request: string; status: number; body: string }[];
}

const INJECTION = [
  "' OR '1'='1",
  "x'); DROP TABLE applications; --",
  "id IN ('a') OR id != ''",
  '"; rm -rf / #',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '<script>alert(1)</script>',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: template-injection text is the point
  '${process.exit(1)}',
  '{{7*7}}',
  '%s%s%s%n',
  '\u0000\u0001\u001f',
  '\u202e\u200b\ufeff',
  'app_00000000000000000000000000',
  'src_01ZZZZZZZZZZZZZZZZZZZZZZZZ',
  'conv_',
  '__proto__',
  'constructor',
  '😀'.repeat(50),
];

const hostileString = fc.oneof(
  fc.constantFrom(...INJECTION),
  fc.string({ maxLength: 40, unit: 'grapheme' }),
  fc.string({ maxLength: 20, unit: 'binary' }),
  fc.integer({ min: 1_000, max: 400_000 }).map((length) => 'A'.repeat(length)),
);

function deeplyNested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let level = 0; level < depth; level++) value = level % 2 ? [value] : { nested: value };
  return value;
}

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(1e308)),
  fc.boolean(),
  fc.constant(null),
  fc.array(hostileString, { maxLength: 5 }),
  fc.integer({ min: 10, max: 1_000 }).map(deeplyNested),
  fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'toString', 'a'), hostileString, { maxKeys: 3 }),
);

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  items?: JsonSchema;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
};

/** A value that fits the JSON Schema zod derives for a field, so a request differs from a valid one in few places. */
function plausible(schema: JsonSchema): fc.Arbitrary<unknown> {
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return fc.oneof(...branches.map(plausible));
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (Array.isArray(schema.type) ? schema.type[0] : schema.type) {
    case 'string':
      return fc.string({ minLength: 1, maxLength: Math.min(schema.maxLength ?? 60, 60) });
    case 'number':
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -10, max: Math.min(schema.maximum ?? 100, 100) });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(plausible(schema.items ?? {}), { maxLength: 3 });
    case 'object':
      return objectFor(schema);
    default:
      return hostileValue;
  }
}

function objectFor(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const properties = Object.entries(schema.properties ?? {});
  const fields = properties.map(([name, field]) =>
    fc
      .option(fc.oneof({ weight: 3, arbitrary: plausible(field) }, { weight: 2, arbitrary: hostileValue }), {
        nil: undefined,
        freq: 4,
      })
      .map((value) => [name, value] as const),
  );
  const extra = fc.dictionary(
    hostileString.filter((key) => key.length < 50),
    hostileValue,
    { maxKeys: 2 },
  );
  return fc.tuple(fc.tuple(...fields), extra).map(([pairs, additional]) => {
    const object: Record<string, unknown> = { ...additional };
    for (const [name, value] of pairs) if (value !== undefined) object[name] = value;
    return object;
  });
}

function bodyObject(schema: z.ZodType): fc.Arbitrary<Record<string, unknown>> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const branches = json.anyOf ?? json.oneOf;
  return branches ? fc.oneof(...branches.map(objectFor)) : objectFor(json);
}

/** Bytes that are not UTF-8: a lone continuation byte, an overlong NUL, a surrogate, a truncated sequence. */
const INVALID_UTF8 = [[0xff], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0x80]];

function withInvalidUtf8(json: string, which: number): Uint8Array {
  const bytes = Buffer.from(json, 'utf8');
  // Inside the first string value, so the JSON stays well-formed around the bad bytes.
  const at = Math.max(0, bytes.indexOf(':"') + 2);
  if (at < 2) return Buffer.concat([bytes, Buffer.from(INVALID_UTF8[which] ?? [0xff])]);
  return Buffer.concat([
    bytes.subarray(0, at),
    Buffer.from(INVALID_UTF8[which] ?? [0xff]),
    bytes.subarray(at),
  ]);
}

type BodyVariant = { contentType: string; bytes: Uint8Array };

function bodyBytes(schema: z.ZodType): fc.Arbitrary<BodyVariant> {
  const json = 'application/json';
  const invalid = bodyObject(schema).filter((object) => !schema.safeParse(object).success);
  return fc.oneof(
    {
      weight: 10,
      arbitrary: invalid.map((object) => ({ contentType: json, bytes: Buffer.from(JSON.stringify(object)) })),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(bodyObject(schema), fc.nat(INVALID_UTF8.length - 1)).map(([object, which]) => ({
        contentType: json,
        bytes: withInvalidUtf8(JSON.stringify(object), which),
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          '{',
          '{"a":',
          '[1,2',
          'nul',
          '{"name":"x",}',
          "{'name':'x'}",
          '\u0000',
          '{"a":1}{"b":2}',
        )
        .map((text) => ({ contentType: json, bytes: Buffer.from(text) })),
    },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 1_000, max: 200_000 }).map((depth) => ({
        contentType: json,
        bytes: Buffer.from(`${'['.repeat(depth)}${']'.repeat(depth)}`),
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data; boundary=x',
          ),
          hostileString,
        )
        .map(([contentType, text]) => ({ contentType, bytes: Buffer.from(text) })),
    },
  );
}

const hostileId = fc.oneof(
  hostileString.filter((id) => id.length > 0 && id.length < 5_000),
  fc.constantFrom(
    'app_01JD000000000000000000000Z',
    'src_01JD000000000000000000000Z',
    'conv_01JD0000000000000000000Z',
    'key_x',
    'file_x',
  ),
);

const hostileQuery = fc.dictionary(
  fc.oneof(
    fc.constantFrom('limit', 'after', 'application_id', 'name', 'expires', 'signature', 'account'),
    hostileString,
  ),
  fc.oneof(
    hostileString,
    fc.integer().map(String),
    fc.constantFrom('-1', '0', '1001', '1e3', 'NaN', 'Infinity'),
  ),
  { maxKeys: 3 },
);

const authorization = (adminKey: string) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constant(`Bearer ${adminKey}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        'Bearer',
        'Bearer ',
        `Basic ${adminKey}`,
        `Bearer ${adminKey} extra`,
        `Bearer ${adminKey.slice(0, -1)}`,
        `Bearer ${'x'.repeat(8_000)}`,
        'Bearer ckb_\u00ff\u00fe',
      ),
    },
  );

function pathId(endpoint: Endpoint, known: KnownIds): string | undefined {
  if (endpoint.path.startsWith('/applications/')) return known.application;
  if (endpoint.path.startsWith('/sources/')) return known.source;
  if (endpoint.path.startsWith('/conversations/')) return known.conversation;
  return undefined;
}

/**
 * A malformed or hostile request for one endpoint. Requests that could change state (any method but GET,
 * and the search that only reads) never carry a valid body against a real id, so a 2xx from them would be a
 * defect the snapshot catches.
 */
function requestFor(endpoint: Endpoint, known: KnownIds, adminKey: string): fc.Arbitrary<FuzzRequest> {
  const real = pathId(endpoint, known);
  const hasId = endpoint.path.includes('{');
  const mutatesWithoutBody = endpoint.method === 'delete' || endpoint.auth === 'signature';
  const id =
    hasId && real && !mutatesWithoutBody
      ? fc.oneof({ weight: 2, arbitrary: fc.constant(real) }, { weight: 1, arbitrary: hostileId })
      : hostileId;
  const body: fc.Arbitrary<BodyVariant | undefined> = endpoint.body
    ? bodyBytes(endpoint.body)
    : endpoint.rawBody
      ? fc
          .string({ maxLength: 200 })
          .map((text) => ({ contentType: 'application/octet-stream', bytes: Buffer.from(text) }))
      : endpoint.method === 'get'
        ? fc.constant(undefined)
        : fc.option(bodyBytes(z.object({ x: z.never() })), { nil: undefined, freq: 3 });
  return fc.record({ id, query: hostileQuery, body, authorization: authorization(adminKey) }).map((parts) => {
    const search = new URLSearchParams(parts.query as Record<string, string>).toString();
    const path = `${endpoint.path.replace(/\{\w+\}/g, encodeURIComponent(parts.id))}${search ? `?${search}` : ''}`;
    const headers: Record<string, string> = {};
    if (parts.authorization && endpoint.auth !== 'signature') headers['authorization'] = parts.authorization;
    if (parts.body) headers['content-type'] = parts.body.contentType;
    return {
      endpoint: `${endpoint.method.toUpperCase()} ${endpoint.path}`,
      method: endpoint.method.toUpperCase(),
      path,
      headers,
      body: parts.body?.bytes,
    };
  });
}

/** `count` requests spread evenly over every endpoint, deterministic for a seed. */
export function generateRequests(
  count: number,
  seed: number,
  known: KnownIds,
  adminKey: string,
): FuzzRequest[] {
  const perEndpoint = Math.ceil(count / ENDPOINTS.length);
  return ENDPOINTS.flatMap((endpoint, index) =>
    fc.sample(requestFor(endpoint, known, adminKey), { numRuns: perEndpoint, seed: seed + index }),
  ).slice(0, count);
}

async function send(test: TestDaemon, request: FuzzRequest): Promise<{ status: number; text: string }> {
  const response = await fetch(`${test.url}${request.path}`, {
    method: request.method,
    headers: request.headers,
    ...(request.body ? { body: request.body } : {}),
  });
  return { status: response.status, text: await response.text() };
}

const ENDPOINT_BY_LABEL = new Map(
  ENDPOINTS.map((endpoint) => [`${endpoint.method.toUpperCase()} ${endpoint.path}`, endpoint]),
);

/** An error in the shape its endpoint promises (the contract's, OpenAI's under /v1, JSON-RPC's too for MCP). */
function contractShaped(status: number, text: string, label: string): boolean {
  if (status < 400) return true;
  try {
    return isPromisedError(ENDPOINT_BY_LABEL.get(label), JSON.parse(text));
  } catch {
    return false;
  }
}

/** Sends every request, `concurrency` at a time, and reports 5xx answers and malformed error bodies. */
export async function runFuzz(
  test: TestDaemon,
  requests: FuzzRequest[],
  concurrency = 8,
): Promise<FuzzOutcome> {
  const outcome: FuzzOutcome = { requests: 0, byStatus: {}, failures: [] };
  let next = 0;
  async function worker(): Promise<void> {
    while (next < requests.length) {
      const request = requests[next++]!;
      // A connection reset without an answer is a failure too: the caller learns nothing about what went wrong.
      const { status, text } = await send(test, request).catch((error: Error) => ({
        status: 0,
        text: `no response: ${error.cause ?? error.message}`,
      }));
      outcome.requests += 1;
      outcome.byStatus[status] = (outcome.byStatus[status] ?? 0) + 1;
      if (status === 0 || status >= 500 || !contractShaped(status, text, request.endpoint)) {
        outcome.failures.push({
          request: `${request.method} ${request.path.slice(0, 200)} ${Buffer.from(request.body ?? [])
            .toString('utf8')
            .slice(0, 200)}`,
          status,
          body: text.slice(0, 300),
        });
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return outcome;
}

/** One application with a completed source and a conversation, so fuzzed ids can also hit real resources. */
export async function seedFuzzTarget(daemon: TestDaemon): Promise<KnownIds> {
  const application = (await daemon.call('POST', '/applications', { name: 'fuzzed' })).body.id;
  const source = (
    await daemon.call('POST', '/sources', {
      application_id: application,
      type: 'text',
      name: 'notes',
      content: 'The lighthouse keeper logs every storm in the harbour chart.',
    })
  ).body.id;
  await waitForSource(daemon, source);
  const conversation = (
    await daemon.call('POST', '/conversations', { application_id: application, message: 'Who logs storms?' })
  ).body.conversation_id;
  return { application, source, conversation };
}
