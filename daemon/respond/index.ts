import { MODEL_NAMES, type ModelName } from '../../src/api/applications.ts';
import type { ProviderModel } from '../../src/config-file.ts';
import type { DaemonConfig } from '../config.ts';
import { createOfflineResponder } from './offline.ts';
import type { ProviderSettings } from './provider.ts';
import type { Responder } from './types.ts';

export { createOfflineResponder } from './offline.ts';
export type * from './types.ts';
export { UpstreamError } from './types.ts';

/** The `models` setting of the daemon's configuration: which provider model answers each name. */
type ModelsConfig = { models?: DaemonConfig['models'] };

export const openaiBaseUrl = 'https://api.openai.com/v1';

const providerDefaults = {
  replyTokens: 1024,
  firstTokenTimeoutMs: 120_000,
  idleTimeoutMs: 60_000,
  maxRetries: 2,
  retryDelayMs: 500,
} as const;

/**
 * The models used when `OPENAI_API_KEY` is set and a name has no mapping of its own: fast,
 * inexpensive, long-context chat models that stream usage.
 */
export const openaiDefaults: Record<ModelName, string> = {
  'lm-3.5-turbo': 'gpt-4.1-mini',
  'lm-4': 'gpt-4.1',
};

const openaiKeyVariable = 'OPENAI_API_KEY';
const defaultContextTokens = 8192;
const openaiContextTokens = 128_000;

/**
 * Picks, per application model name: its configured provider; else, when `OPENAI_API_KEY` is set,
 * the OpenAI default above; else the built-in offline responder. So one name can be mapped to a
 * local server while the other stays offline.
 */
export function createResponder(config: ModelsConfig, env: NodeJS.ProcessEnv): Responder {
  const offline = createOfflineResponder();
  const responders = new Map<ModelName, Responder>();
  for (const name of MODEL_NAMES) {
    const mapping = config.models?.[name] ?? defaultMapping(name, env);
    responders.set(name, mapping ? lazyProviderResponder(providerSettings(mapping, env)) : offline);
  }
  const pick = (name: ModelName): Responder => responders.get(name) ?? offline;
  return {
    reply: (request, options) => pick(request.model).reply(request, options),
    title: (input, options) => pick(input.model).title(input, options),
  };
}

/**
 * A provider's responder, made at its first use: its module loads the openai SDK, 7 MB of heap and 0.3 s of
 * start-up that a daemon without a provider, or before its first conversation, has no use for.
 */
function lazyProviderResponder(settings: ProviderSettings): Responder {
  let loaded: Promise<Responder> | undefined;
  const responder = (): Promise<Responder> =>
    (loaded ??= import('./provider.ts').then(
      ({ createProviderResponder }) => createProviderResponder(settings),
      (error: unknown) => {
        // Tried again at the next request rather than failing every conversation until a restart.
        loaded = undefined;
        throw error;
      },
    ));
  return {
    async *reply(request, options) {
      yield* (await responder()).reply(request, options);
    },
    title: async (input, options) => (await responder()).title(input, options),
  };
}

/** Which backend serves each name, for the daemon's start-up log line (never a key). */
export function describeModels(config: ModelsConfig, env: NodeJS.ProcessEnv): Record<ModelName, string> {
  const describe = (name: ModelName): string => {
    const mapping = config.models?.[name] ?? defaultMapping(name, env);
    return mapping ? `${mapping.model} at ${mapping.base_url ?? openaiBaseUrl}` : 'offline (extractive)';
  };
  return { 'lm-3.5-turbo': describe('lm-3.5-turbo'), 'lm-4': describe('lm-4') };
}

function defaultMapping(name: ModelName, env: NodeJS.ProcessEnv): ProviderModel | undefined {
  return env[openaiKeyVariable] ? { model: openaiDefaults[name] } : undefined;
}

function providerSettings(mapping: ProviderModel, env: NodeJS.ProcessEnv): ProviderSettings {
  const isOpenai = mapping.base_url === undefined;
  const keyVariable = mapping.api_key_env ?? (isOpenai ? openaiKeyVariable : undefined);
  const apiKey = keyVariable ? env[keyVariable] || undefined : undefined;
  return {
    label: isOpenai ? 'openai' : withoutCredentials(mapping.base_url ?? openaiBaseUrl),
    baseUrl: mapping.base_url ?? openaiBaseUrl,
    model: mapping.model,
    apiKey,
    ...(keyVariable && !apiKey ? { missingKeyVariable: keyVariable } : {}),
    contextTokens: mapping.context_tokens ?? (isOpenai ? openaiContextTokens : defaultContextTokens),
    ...providerDefaults,
  };
}

/** Error messages name the endpoint; a `user:password@` in its URL must not go with them. */
function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`.replace(/\/$/, '');
  } catch {
    return 'the configured endpoint';
  }
}
