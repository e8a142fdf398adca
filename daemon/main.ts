import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, STATUS_CODES } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { createApp } from './app.ts';
import { type Clock, systemClock } from './clock.ts';
import { type DaemonConfig, readConfigFile, resolveDaemonConfig, updateConfigFile } from './config.ts';
import { invalidRequest, toErrorResponse, toOpenAiErrorResponse } from './errors.ts';
import { createEmbedder } from './ingest/embed/index.ts';
import { acquireLock } from './lock.ts';
import { createFileLogger, type Logger } from './logger.ts';
import { createResponder } from './respond/index.ts';
import { isOpenAiPath } from './routes/openai.ts';
import { createServices, type Services } from './services/index.ts';
import { type ChunkIndex, chunkTableName, openChunkIndex } from './store/chunk-index.ts';
import { openStore, type Store } from './store/index.ts';
import { VERSION } from './version.ts';

export interface DaemonOptions {
  home: string;
  port?: number | undefined;
  host?: string | undefined;
  env?: NodeJS.ProcessEnv;
  clock?: Clock;
  /** Event-stream keep-alive interval; the contract's 15 s unless a test needs it shorter. */
  pingIntervalMs?: number;
  /** Stop gracefully on SIGINT/SIGTERM (the foreground daemon); tests stop it with `close`. */
  handleSignals?: boolean;
}

export interface RunningDaemon {
  url: string;
  config: DaemonConfig;
  services: Services;
  close(): Promise<void>;
}

const MAINTENANCE_INTERVAL_MS = 60_000;
const SHUTDOWN_GRACE_MS = 10_000;

function embedderProvider(config: DaemonConfig, env: NodeJS.ProcessEnv) {
  const settings = config.embeddings;
  const apiKey = env[settings?.api_key_env ?? 'OPENAI_API_KEY'];
  if (!settings?.base_url && !settings?.model && !apiKey) return undefined;
  return {
    ...(settings?.base_url ? { baseUrl: settings.base_url } : {}),
    ...(settings?.model ? { model: settings.model } : {}),
    ...(apiKey ? { apiKey } : {}),
  };
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server.address() as AddressInfo));
  });
}

/**
 * Requests Node's HTTP parser refuses (a URL or headers over its 16 KiB limit, broken framing) never reach
 * Koa, and Node answers them with an empty body; they get the contract's error body like every other error.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const message =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 'the request URL and headers are too large: they must fit in 16 KiB'
      : 'the request is not valid HTTP/1.1';
  // The request line, when the parser got that far, tells whether an OpenAI client is waiting for the answer.
  const requestLine = (error as { rawPacket?: Buffer }).rawPacket?.subarray(0, 512).toString('latin1') ?? '';
  const path = /^[A-Z]+ ([^\s?]+)/.exec(requestLine)?.[1] ?? '';
  const refusal = invalidRequest(message);
  const { status, body } = isOpenAiPath(path) ? toOpenAiErrorResponse(refusal) : toErrorResponse(refusal);
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
  );
}

/** Runs `work` every minute, never two at once; `stop` waits for a run in progress. */
function runMaintenance(work: () => Promise<void>, logger: Logger): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    running ??= work()
      .catch((error: unknown) => logger.log('warn', 'maintenance failed', { error: String(error) }))
      .finally(() => {
        running = undefined;
      });
  }, MAINTENANCE_INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

/**
 * Chunks made by an embedder other than the current one are never read again: their sources were queued for
 * re-embedding by `resume`. Dropping the tables keeps them from lingering on disk.
 */
async function dropOtherChunkTables(store: Store, current: string, logger: Logger): Promise<void> {
  for (const name of await store.connection.tableNames()) {
    if (!name.startsWith('chunks_') || name === current) continue;
    await store.connection.dropTable(name);
    logger.log('info', 'dropped the chunks of a previous embedder', { table: name });
  }
}

/** Starts the daemon: takes the data directory's lock, opens the store, recovers, resumes ingestion, listens. */
export async function runDaemon(options: DaemonOptions): Promise<RunningDaemon> {
  const env = options.env ?? process.env;
  const clock = options.clock ?? systemClock;
  // LanceDB and the embedder cache create their files with the process umask (usually 0644): readable by every
  // user once the directory is copied or its mode loosened. Everything the daemon writes is the owner's alone.
  process.umask(0o077);
  await mkdir(options.home, { recursive: true, mode: 0o700 });
  const config = resolveDaemonConfig({
    flags: { home: options.home, port: options.port, host: options.host },
    env,
    file: await readConfigFile(options.home),
  });
  const lock = await acquireLock(config.dataDir);
  const logger = createFileLogger(join(config.home, 'logs', 'daemon.log'));
  const store = await openStore(join(config.dataDir, 'db'));
  let chunkIndex: ChunkIndex | undefined;
  try {
    const provider = embedderProvider(config, env);
    const embedder = await createEmbedder({
      ...(provider ? { provider } : {}),
      cacheDir: join(config.home, 'cache'),
    });
    chunkIndex = await openChunkIndex(store.connection, embedder);
    const responder = createResponder({ ...(config.models ? { models: config.models } : {}) }, env);
    const services = await createServices({ store, chunkIndex, embedder, responder, config, clock, logger });

    const adminKey = await services.keys.bootstrap();
    // Before the port answers: a CLI that started this daemon reads the key as soon as it does, and it once
    // read config.json in the moment between the two.
    if (adminKey) await updateConfigFile(config.home, { api_key: adminKey });
    await services.deletion.recover();
    const resumed = await services.ingestion.resume();
    await dropOtherChunkTables(store, chunkTableName(embedder.id), logger);

    const app = createApp({
      services,
      logger,
      version: VERSION,
      bodyLimitBytes: config.limits.body_bytes,
      ...(options.pingIntervalMs ? { pingIntervalMs: options.pingIntervalMs } : {}),
      ratePerMinute: config.limits.rate_limit_per_minute,
    });
    const server = createServer(app.callback());
    server.on('clientError', answerClientError);
    const address = await listen(server, config.port, config.host);
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const url = `http://${host}:${address.port}`;
    if (adminKey) await updateConfigFile(config.home, { url });
    const stateFile = join(config.home, 'daemon.json');
    await writeFile(
      stateFile,
      `${JSON.stringify({ pid: process.pid, url, started_at: clock.now().toISOString() })}\n`,
      {
        mode: 0o600,
      },
    );
    logger.log('info', 'daemon started', { url, pid: process.pid, embedder: embedder.id, resumed });
    const maintenance = runMaintenance(async () => {
      await store.maintain();
      await chunkIndex?.maintain();
    }, logger);

    let closing: Promise<void> | undefined;
    const close = (): Promise<void> => {
      closing ??= (async () => {
        await maintenance.stop();
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
        await stopped;
        clearTimeout(force);
        await services.ingestion.stop();
        await chunkIndex?.close();
        await store.close();
        await rm(stateFile, { force: true });
        logger.log('info', 'daemon stopped');
        await logger.close();
        await lock.release();
      })();
      return closing;
    };
    if (options.handleSignals ?? true) {
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void close());
    }
    return { url, config, services, close };
  } catch (error) {
    await chunkIndex?.close();
    await store.close();
    await logger.close();
    await lock.release();
    throw error;
  }
}
