import type { Context } from 'koa';
import type { z } from 'zod';
import { CkbError, invalidRequest } from './errors.ts';

/** Checks a request part against its wire schema; the first problem becomes a 400 naming the field. */
export function parseWith<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const param = issue?.path.map(String).join('.') || undefined;
  const message = issue?.message ?? 'invalid request';
  const prefixed = param && !message.startsWith(param.split('.')[0] ?? '') ? `${param}: ${message}` : message;
  throw invalidRequest(prefixed, param);
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Reads a JSON request body, bounded by `limit` bytes so a huge body is refused without being held. */
export async function readJsonBody(ctx: Context, limit: number): Promise<unknown> {
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > limit)
    throw new CkbError('payload_too_large', `the request body is larger than ${limit} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit)
      throw new CkbError('payload_too_large', `the request body is larger than ${limit} bytes`);
    chunks.push(chunk);
  }
  if (size === 0) return {};
  if (!ctx.is('application/json')) {
    throw invalidRequest('the request body must be JSON, sent with "Content-Type: application/json"');
  }
  let text: string;
  try {
    text = strictUtf8.decode(Buffer.concat(chunks));
  } catch {
    // Decoding leniently would store U+FFFD in place of the caller's bytes: a silent change of their data.
    throw invalidRequest('the request body is not valid UTF-8');
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw invalidRequest(`the request body is not valid JSON: ${(error as Error).message}`);
  }
}
