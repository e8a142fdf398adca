import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, STATUS_CODES } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { ConfigError } from '../src/config-error.ts';
import { configFilePath, readConfigFile } from '../src/config-file.ts';
import { VERSION } from '../src/version.ts';
import { createApp } from './app.ts';
import { type Clock, systemClock, timestamp } from './clock.ts';
import { type DaemonConfig, resolveDaemonConfig, updateConfigFile } from './config.ts';
import { createEmbedder } from './embed/index.ts';
import { invalidRequest, toErrorResponse, toOpenAiErrorResponse } from './errors.ts';
import { missingLanguagePacks } from './ingest/extract/language-packs.ts';
import { createReaders } from './ingest/readers.ts';
import { acquireLock } from './lock.ts';
import { createFileLogger, type Logger } from './logger.ts';
import { createResponder, describeModels } from './respond/index.ts';
import { isOpenAiPath } from './routes/openai.ts';
import { createServices, type Services } from './services/index.ts';
import { createIngestion, type Ingestion } from './services/ingestion.ts';
import { type DatabaseLocation, DatabaseStartError } from './store/database.ts';
import { openStore, type Store, sqlitePath } from './store/index.ts';

export interface DaemonOptions {
  home: string;
  port?: number | undefined;
  host?: string | undefined;
  /** A PostgreSQL URL for the metadata; otherwise CKB_DATABASE_URL, config.json, or the embedded SQLite. */
  databaseUrl?: string | undefined;
  /** Where the chunks are (a directory or an object-store URI); otherwise CKB_LANCEDB_URI, config.json, the home. */
  lancedbUri?: string | undefined;
  /** The directory of uploaded files; otherwise CKB_FILES_URI, config.json, beside the chunks. */
  filesUri?: string | undefined;
  /** Serve the HTTP API (default); a worker (`ckb worker`) does not. */
  api?: boolean;
  /** Run ingestion jobs (default); an API replica (`ckb serve --no-ingest`) leaves them to workers. */
  ingest?: boolean;
  /** Sources ingested at once, instead of `limits.ingest_concurrency` (`ckb worker --concurrency`). */
  concurrency?: number | undefined;
  env?: NodeJS.ProcessEnv;
  clock?: Clock;
  /** Event-stream keep-alive interval; the contract's 15 s unless a test needs it shorter. */
  pingIntervalMs?: number;
  /** Stop gracefully on SIGINT/SIGTERM (the foreground daemon); tests stop it with `close`. */
  handleSignals?: boolean;
}

export interface RunningDaemon {
  /** Where the API listens; empty for a worker, which serves none. */
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
 * The address clients reach the daemon at: the one it listens on, or, listening on every interface
 * (0.0.0.0 or ::), the machine's host name, since a wildcard address reaches nothing from elsewhere.
 */
function ownUrl(address: AddressInfo): string {
  const wildcard = address.address === '0.0.0.0' || address.address === '::';
  const host = wildcard ? hostname() : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
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

/** Stops answering: in-flight requests finish, for up to the grace period. */
async function stopServer(server: Server): Promise<void> {
  const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
  await stopped;
  clearTimeout(force);
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

/** Where the metadata lives: PostgreSQL when a URL is configured, else the embedded SQLite file. */
function databaseLocation(config: DaemonConfig): DatabaseLocation {
  const url = config.databaseUrl;
  if (url === undefined) return { kind: 'sqlite', path: sqlitePath(config.dataDir) };
  if (!/^postgres(ql)?:\/\//.test(url))
    throw new DatabaseStartError(
      'the database URL must be a PostgreSQL URL (postgres://user:password@host:port/database): check --database-url, CKB_DATABASE_URL or database_url in config.json',
    );
  return { kind: 'postgres', url };
}

/** API replicas and workers share their state through PostgreSQL: on the embedded SQLite, nothing else could. */
function checkRole(config: DaemonConfig, api: boolean, ingest: boolean): void {
  if (!api && !ingest) throw new Error('a process must serve the API, run ingestion, or both');
  if (config.databaseUrl !== undefined || (api && ingest)) return;
  const what = api ? 'an API-only process (--no-ingest)' : 'a worker';
  throw new ConfigError(
    `${what} shares its work with other processes through PostgreSQL, but this home uses the embedded SQLite: ` +
      'set --database-url, CKB_DATABASE_URL or database_url in config.json to the PostgreSQL database they share',
  );
}

/** Refuses to start with text recognition languages whose packs are not installed, saying how to fix it. */
function checkLanguagePacks(config: DaemonConfig): void {
  if (!config.ocr.enabled) return;
  const missing = missingLanguagePacks(config.ocr.languages);
  if (missing.length === 0) return;
  throw new Error(
    `${configFilePath(config.home)}: "ocr.languages" names language packs that are not installed: ${missing.join(', ')}; ` +
      'install them, or remove them from the list',
  );
}

/** Starts the daemon: takes the data directory's lock, opens the store, recovers, resumes ingestion, listens. */
export async function runDaemon(options: DaemonOptions): Promise<RunningDaemon> {
  const env = options.env ?? process.env;
  const clock = options.clock ?? systemClock;
  // LanceDB and the embedder cache create their files with the process umask (usually 0644): readable by every
  // user once the directory is copied or its mode loosened. Everything the daemon writes is the owner's alone.
  process.umask(0o077);
  await mkdir(options.home, { recursive: true, mode: 0o700 });
  const api = options.api ?? true;
  const ingest = options.ingest ?? true;
  const config = resolveDaemonConfig({
    flags: {
      home: options.home,
      port: options.port,
      host: options.host,
      databaseUrl: options.databaseUrl,
      lancedbUri: options.lancedbUri,
      filesUri: options.filesUri,
    },
    env,
    file: readConfigFile(options.home) ?? {},
  });
  if (options.concurrency !== undefined) config.limits.ingest_concurrency = options.concurrency;
  const location = databaseLocation(config);
  checkRole(config, api, ingest);
  checkLanguagePacks(config);
  const role = api && ingest ? 'api and ingestion' : api ? 'api' : 'ingestion';
  // One daemon per home: it owns the home's logs, pid file and uploaded files (and the embedded database).
  const lock = await acquireLock(config.dataDir);
  const logger = createFileLogger(join(config.home, 'logs', 'daemon.log'));
  // Workers start with the first job, so an API-only process that never ingests starts none.
  const readers = createReaders();
  let store: Store | undefined;
  try {
    const provider = embedderProvider(config, env);
    const embedder = await createEmbedder({
      ...(provider ? { provider } : {}),
      cacheDir: join(config.home, 'cache'),
    });
    let ingestion: Ingestion | undefined;
    // Leases name the machine and home that took them: the next process of this home knows its own.
    const homeOwner = `${hostname()}:${config.home}:`;
    const opened = await openStore({
      database: location,
      lancedb: { uri: config.lancedbUri, storageOptions: config.lancedbStorageOptions },
      dataDir: config.dataDir,
      embedder,
      owner: `${homeOwner}${process.pid}:${randomBytes(4).toString('hex')}`,
      ingesting: () => ingestion?.busy() ?? false,
      onBackgroundError: (what, error) => logger.log('warn', `${what} failed`, { error: String(error) }),
      now: () => timestamp(clock),
    });
    store = opened;
    if (opened.opened.legacy)
      logger.log('info', 'imported the data of the earlier layout', {
        ...opened.opened.legacy.imported,
        retired_to: opened.opened.legacy.retiredTo,
      });
    ingestion = createIngestion({
      store: opened,
      embedder,
      readers,
      config,
      clock,
      logger,
      filesDir: config.filesDir,
      runsJobs: ingest,
    });
    const responder = createResponder({ ...(config.models ? { models: config.models } : {}) }, env);
    const services = await createServices({
      store: opened,
      ingestion,
      embedder,
      responder,
      config,
      clock,
      logger,
      // Without an API, no upload arrives; in a files directory outside the home, which other processes may
      // share, another may be receiving a file meanwhile.
      leftoverUploads: !api ? 'none' : config.filesDir === join(config.dataDir, 'files') ? 'all' : 'stale',
      ingests: ingest,
    });

    // Of all the processes sharing a database, the first to start creates the admin key.
    const adminKey = await services.keys.bootstrap();
    // Before the port answers: a CLI that started this daemon reads the key as soon as it does, and it once
    // read config.json in the moment between the two.
    if (adminKey) await updateConfigFile(config.home, { api_key: adminKey });
    // Every purge, due or not: no attempt of this daemon runs yet, and those of a killed one cannot write.
    await opened.purges.run({ all: true });
    const resumed = await ingestion.resume(homeOwner);

    let url = '';
    let server: Server | undefined;
    if (api) {
      const app = createApp({
        services,
        logger,
        version: VERSION,
        url: () => config.publicUrl ?? url,
        bodyLimitBytes: config.limits.body_bytes,
        ...(options.pingIntervalMs ? { pingIntervalMs: options.pingIntervalMs } : {}),
        ratePerMinute: config.limits.rate_limit_per_minute,
      });
      server = createServer(app.callback());
      server.on('clientError', answerClientError);
      url = ownUrl(await listen(server, config.port, config.host));
      if (adminKey) await updateConfigFile(config.home, { url });
    }
    const stateFile = join(config.home, 'daemon.json');
    const state = api
      ? { pid: process.pid, url, started_at: clock.now().toISOString() }
      : { pid: process.pid, role: 'worker', started_at: clock.now().toISOString() };
    await writeFile(stateFile, `${JSON.stringify(state)}\n`, { mode: 0o600 });
    logger.log('info', 'daemon started', {
      url,
      pid: process.pid,
      role,
      ingest_concurrency: ingest ? config.limits.ingest_concurrency : 0,
      database: opened.database.description,
      lancedb: config.lancedbUri,
      files: config.filesDir,
      embedder: embedder.id,
      models: describeModels(config, env),
      migrated: opened.opened.migrated,
      requeued: opened.opened.requeued,
      resumed,
    });
    const maintenance = runMaintenance(async () => {
      await opened.purges.run();
      await opened.chunks.maintain();
    }, logger);

    let closing: Promise<void> | undefined;
    const close = (): Promise<void> => {
      closing ??= (async () => {
        await maintenance.stop();
        if (server) await stopServer(server);
        await ingestion.stop();
        await readers.close();
        await opened.purges.run().catch(() => {});
        await opened.close();
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
    await store?.close();
    await readers.close();
    await logger.close();
    await lock.release();
    throw error;
  }
}
