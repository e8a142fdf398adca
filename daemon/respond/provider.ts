import OpenAI, { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import type { Usage } from '../../src/api/conversations.ts';
import { buildPrompt, buildTitlePrompt, citedPassages, type PromptMessage, tidyTitle } from './prompt.ts';
import { countTokens, usageOf } from './tokens.ts';
import type { ReplyEvent, ReplyRequest, Responder, TitleInput } from './types.ts';
import { UpstreamError } from './types.ts';

export interface ProviderSettings {
  /** How errors name the provider, e.g. `openai` or the base URL; never a key. */
  label: string;
  baseUrl: string;
  model: string;
  /** The key itself, or undefined for keyless local servers. */
  apiKey: string | undefined;
  /** Set when a key is required but its variable is empty, so the error can say which one to set. */
  missingKeyVariable?: string;
  contextTokens: number;
  replyTokens: number;
  /** Longest wait for the first streamed token (or a whole JSON reply), retries aside. */
  firstTokenTimeoutMs: number;
  /** Longest silence between two streamed chunks once the reply has started. */
  idleTimeoutMs: number;
  maxRetries: number;
  /** First backoff delay; it doubles on every retry, unless the provider sends `retry-after`. */
  retryDelayMs: number;
}

/** `retry-after` can ask for anything; a reply that waits longer than this is worse than an error. */
const longestRetryWaitMs = 20_000;

/** A Responder backed by one OpenAI-compatible chat model (OpenAI, Ollama, vLLM, llama.cpp …). */
export function createProviderResponder(settings: ProviderSettings): Responder {
  const client = new OpenAI({
    baseURL: settings.baseUrl,
    // Local servers take no key, but the SDK insists on one.
    apiKey: settings.apiKey ?? 'no-key',
    // Retries and timeouts are ours: the SDK cannot tell "before the first token" from "after".
    maxRetries: 0,
    timeout: settings.firstTokenTimeoutMs,
  });
  const describe = `${settings.label} (model ${settings.model})`;

  function failure(error: unknown): UpstreamError {
    if (error instanceof UpstreamError) return error;
    return new UpstreamError(
      `language-model provider ${describe} failed: ${reason(error, settings.apiKey)}`,
      {
        provider: settings.label,
        model: settings.model,
        cause: error,
      },
    );
  }

  function checkKey(): void {
    if (!settings.missingKeyVariable) return;
    throw new UpstreamError(
      `language-model provider ${describe} has no API key: set the environment variable ${settings.missingKeyVariable}`,
      { provider: settings.label, model: settings.model },
    );
  }

  async function* reply(request: ReplyRequest, options: { signal: AbortSignal }): AsyncGenerator<ReplyEvent> {
    checkKey();
    const prompt = buildPrompt(request, settings);
    let text = '';
    let usage: Usage | undefined;
    for (let attempt = 0; ; attempt++) {
      const deadline = new Deadline(options.signal, settings.firstTokenTimeoutMs);
      try {
        const stream = await client.chat.completions.create(
          {
            model: settings.model,
            messages: prompt.messages,
            stream: true,
            stream_options: { include_usage: true },
          },
          { signal: deadline.signal },
        );
        for await (const chunk of stream) {
          deadline.restart(settings.idleTimeoutMs);
          if (chunk.usage) usage = toUsage(chunk.usage);
          const delta = chunk.choices[0]?.delta.content;
          if (!delta) continue;
          text += delta;
          yield { type: 'text-delta', delta };
        }
      } catch (error) {
        const cause = deadline.explain(error);
        if (options.signal.aborted) throw options.signal.reason;
        if (text.length > 0 || attempt >= settings.maxRetries || !isRetryable(cause)) throw failure(cause);
        await sleep(retryDelay(cause, attempt, settings.retryDelayMs), options.signal);
        continue;
      } finally {
        // Also reached when the consumer stops iterating: the upstream request must not outlive it.
        deadline.finish();
      }
      break;
    }
    yield {
      type: 'finish',
      usage: usage ?? usageOf(prompt.promptTokens, countTokens(text)),
      usedPassages: citedPassages(text, request.passages),
    };
  }

  async function title(input: TitleInput, options: { signal: AbortSignal }): Promise<string> {
    checkKey();
    const messages: PromptMessage[] = buildTitlePrompt(input.message, input.passages);
    for (let attempt = 0; ; attempt++) {
      const deadline = new Deadline(options.signal, settings.firstTokenTimeoutMs);
      try {
        const completion = await client.chat.completions.create(
          { model: settings.model, messages },
          { signal: deadline.signal },
        );
        return tidyTitle(completion.choices[0]?.message.content ?? '');
      } catch (error) {
        const cause = deadline.explain(error);
        if (options.signal.aborted) throw options.signal.reason;
        if (attempt >= settings.maxRetries || !isRetryable(cause)) throw failure(cause);
        await sleep(retryDelay(cause, attempt, settings.retryDelayMs), options.signal);
      } finally {
        deadline.finish();
      }
    }
  }

  return { reply, title };
}

class TimeoutError extends Error {
  constructor(milliseconds: number) {
    super(`no answer within ${milliseconds} ms`);
    this.name = 'TimeoutError';
  }
}

/**
 * One attempt's abort controller: it follows the caller's signal and fires on its own when the
 * provider stays silent too long. Aborting it cancels the upstream HTTP request.
 */
class Deadline {
  readonly #controller = new AbortController();
  readonly #caller: AbortSignal;
  readonly #onCallerAbort = (): void => this.#controller.abort(this.#caller.reason);
  #timer: NodeJS.Timeout | undefined;
  #timedOut: TimeoutError | undefined;

  constructor(caller: AbortSignal, milliseconds: number) {
    this.#caller = caller;
    if (caller.aborted) this.#controller.abort(caller.reason);
    else caller.addEventListener('abort', this.#onCallerAbort, { once: true });
    this.restart(milliseconds);
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  restart(milliseconds: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timedOut = new TimeoutError(milliseconds);
      this.#controller.abort(this.#timedOut);
    }, milliseconds);
  }

  /** The SDK reports our own timeout as a user abort; give back the timeout instead. */
  explain(error: unknown): unknown {
    return this.#timedOut ?? error;
  }

  finish(): void {
    clearTimeout(this.#timer);
    this.#caller.removeEventListener('abort', this.#onCallerAbort);
    if (!this.#controller.signal.aborted) this.#controller.abort();
  }
}

function isRetryable(error: unknown): boolean {
  if (error instanceof TimeoutError) return true;
  if (error instanceof APIUserAbortError) return false;
  if (error instanceof APIConnectionError) return true;
  if (error instanceof APIError) {
    const status = error.status ?? 0;
    return status === 408 || status === 409 || status === 429 || status >= 500;
  }
  // A stream cut before its first token (socket reset, "terminated") surfaces as a plain error.
  return error instanceof TypeError || (error instanceof Error && 'code' in error);
}

function retryDelay(error: unknown, attempt: number, baseMs: number): number {
  const backoff = baseMs * 2 ** attempt * (0.75 + Math.random() * 0.5);
  const requested = error instanceof APIError ? retryAfterMs(error.headers) : undefined;
  return Math.min(requested ?? backoff, longestRetryWaitMs);
}

function retryAfterMs(headers: Headers | undefined): number | undefined {
  const milliseconds = Number(headers?.get('retry-after-ms') ?? Number.NaN);
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const value = headers?.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function reason(error: unknown, apiKey: string | undefined): string {
  let text: string;
  if (error instanceof APIError && error.status !== undefined)
    text = `HTTP ${error.status}: ${error.message}`;
  else if (error instanceof Error)
    text = error.cause instanceof Error ? `${error.message} (${error.cause.message})` : error.message;
  else text = String(error);
  // Vendors echo (partly masked) keys in 401 bodies; never pass any of it on.
  if (apiKey && apiKey.length >= 8) text = text.split(apiKey).join('[redacted]');
  return text.replace(/\b(sk|key)-[A-Za-z0-9_*-]{4,}/g, '[redacted]');
}

function toUsage(usage: OpenAI.CompletionUsage): Usage {
  return usageOf(usage.prompt_tokens, usage.completion_tokens);
}

function sleep(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
