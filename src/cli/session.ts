import { type CkbClient, createClient } from '../client/index.ts';
import { loadConfig, type ResolvedConfig, requireApiKey } from '../config.ts';
import { readConfigFile } from '../config-file.ts';
import { isAnswering, isLoopback, readDaemonState, startDaemon } from './daemon-process.ts';
import { EXIT, ExitError } from './exit.ts';
import type { GlobalOptions } from './options.ts';
import { createOutput, type Output } from './output.ts';

export interface Session {
  client: CkbClient;
  config: ResolvedConfig;
  output: Output;
}

function autostartAllowed(config: ResolvedConfig): boolean {
  if (process.env['CKB_NO_AUTOSTART'] === '1') return false;
  // Only a daemon this machine would run itself: the default address, the home's own daemon, or another loopback port.
  return isLoopback(config.url) || readDaemonState(config.home)?.url === config.url;
}

/** Makes sure something answers at the configured URL, starting the local daemon in the background if allowed. */
export async function ensureDaemon(config: ResolvedConfig, output: Output): Promise<void> {
  if (await isAnswering(config.url)) return;
  if (!autostartAllowed(config)) {
    const hint =
      process.env['CKB_NO_AUTOSTART'] === '1'
        ? 'start it with `ckb daemon start` (autostart is off: CKB_NO_AUTOSTART=1)'
        : 'check --daemon-url / CKB_URL, or start it there';
    throw new ExitError(`cannot reach the ckb daemon at ${config.url}; ${hint}`, EXIT.unreachable);
  }
  output.notice(`ckb: no daemon at ${config.url}; starting one in the background (home ${config.home})…`);
  const pid = await startDaemon(config.home, config.url);
  output.notice(`ckb: daemon started (pid ${pid}); stop it with \`ckb daemon stop\``);
}

/**
 * A daemon answers, yet this home has no key: the port is held by a daemon another home started (another
 * CKB_HOME, or a test's). "No API key" would send the user looking for a key this home never had.
 */
async function foreignDaemon(config: ResolvedConfig): Promise<ExitError> {
  const { version } = await createClient({ url: config.url }).health();
  const state = readDaemonState(config.home);
  const own = state === undefined ? '' : ` (this home's own daemon, pid ${state.pid}, is at ${state.url})`;
  return new ExitError(
    `the ckb daemon answering at ${config.url} (version ${version}) was started from another home: ${config.home} has no API key for it${own}. ` +
      "Pass that daemon's key with --api-key or CKB_API_KEY, use that daemon's CKB_HOME, or give this home a free port with --daemon-url or CKB_URL",
    EXIT.usage,
  );
}

export async function openSession(options: GlobalOptions): Promise<Session> {
  const output = createOutput(options);
  const flags = { url: options.daemonUrl, apiKey: options.apiKey, home: options.home };
  let config = loadConfig(flags);
  await ensureDaemon(config, output);
  if (config.apiKey === undefined) {
    // A daemon started just now wrote the admin key on its first start.
    config = { ...config, apiKey: readConfigFile(config.home)?.api_key };
  }
  // This home's own daemon with no key in config.json is the plain "no API key" case below.
  if (config.apiKey === undefined && readDaemonState(config.home)?.url !== config.url) {
    throw await foreignDaemon(config);
  }
  return { client: createClient({ url: config.url, apiKey: requireApiKey(config) }), config, output };
}
