import { type Command, InvalidArgumentError } from 'commander';
import type { DaemonOptions, RunningDaemon } from '../../daemon/main.ts';
import { examples, globalOptions } from './options.ts';

/** Where a process's shared state is: every API replica and worker of one deployment names the same. */
interface StorageFlags {
  databaseUrl?: string;
  lancedbUri?: string;
  filesUri?: string;
}

interface ServeFlags extends StorageFlags {
  port?: number;
  host?: string;
  /** Commander's negation of `--no-ingest`. */
  ingest: boolean;
}

interface WorkerFlags extends StorageFlags {
  concurrency?: number;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new InvalidArgumentError(`invalid port: ${value}`);
  return port;
}

function parseConcurrency(value: string): number {
  const concurrency = Number(value);
  if (!/^\d+$/.test(value) || concurrency < 1 || concurrency > 64)
    throw new InvalidArgumentError(`invalid concurrency: ${value} (a whole number from 1 to 64)`);
  return concurrency;
}

function storageOptions(command: Command): Command {
  return command
    .option('--database-url <url>', 'PostgreSQL shared by every process (env CKB_DATABASE_URL)')
    .option(
      '--lancedb-uri <uri>',
      'the chunks: a directory every process reaches, or s3://… (env CKB_LANCEDB_URI; default in the home)',
    )
    .option(
      '--files-uri <dir>',
      'uploaded files, a directory every process reaches (env CKB_FILES_URI; default beside the chunks)',
    );
}

function storageFlags(flags: StorageFlags) {
  return {
    ...(flags.databaseUrl === undefined ? {} : { databaseUrl: flags.databaseUrl }),
    ...(flags.lancedbUri === undefined ? {} : { lancedbUri: flags.lancedbUri }),
    ...(flags.filesUri === undefined ? {} : { filesUri: flags.filesUri }),
  };
}

async function localConfig(command: Command) {
  const { loadConfig } = await import('../config.ts');
  const { createOutput } = await import('./output.ts');
  const options = globalOptions(command);
  return {
    config: loadConfig({ url: options.daemonUrl, apiKey: options.apiKey, home: options.home }),
    output: createOutput(options),
  };
}

/**
 * Runs the daemon in this process (`serve`, `worker`), once it runs with the daemon's environment; undefined when
 * a relaunched child ran it instead (its exit code is then this process's). The daemon module is imported only
 * here: it is the implementation of these two commands, and no other command loads it.
 */
async function runInForeground(
  command: Command,
  options: Omit<DaemonOptions, 'home'>,
): Promise<RunningDaemon | undefined> {
  const { relaunchWithDaemonEnvironment } = await import('./daemon-environment.ts');
  const relaunched = await relaunchWithDaemonEnvironment();
  if (relaunched !== undefined) {
    process.exitCode = relaunched;
    return undefined;
  }
  const { resolveHome } = await import('../config.ts');
  const { onInterrupt } = await import('./exit.ts');
  const { runDaemon } = await import('../../daemon/main.ts');
  // The daemon shuts down gracefully on SIGINT itself; exiting at once would skip that.
  onInterrupt(() => undefined);
  return runDaemon({ home: resolveHome(globalOptions(command), process.env), ...options });
}

export function registerDaemon(program: Command): void {
  storageOptions(
    program
      .command('serve')
      .description('Run the daemon in the foreground; prints the URL it listens on')
      .option('--port <n>', 'port (default 7411; 0 picks a free one)', parsePort)
      .option('--host <host>', 'interface to listen on (default 127.0.0.1)')
      .option('--no-ingest', 'serve the API only, and leave ingestion to `ckb worker` processes'),
  )
    .addHelpText(
      'after',
      examples(
        'ckb serve',
        'CKB_DATABASE_URL=postgres://ckb@db/ckb CKB_LANCEDB_URI=/mnt/ckb/db ckb serve --no-ingest --host 0.0.0.0',
      ),
    )
    .action(async (flags: ServeFlags, command: Command) => {
      const running = await runInForeground(command, {
        ...(flags.port === undefined ? {} : { port: flags.port }),
        ...(flags.host === undefined ? {} : { host: flags.host }),
        ...storageFlags(flags),
        ingest: flags.ingest,
      });
      if (running) process.stdout.write(`${running.url}\n`);
    });

  storageOptions(
    program
      .command('worker')
      .description('Run ingestion only, in the foreground, for the API processes that share its PostgreSQL')
      .option(
        '--concurrency <n>',
        'sources ingested at once (default: limits.ingest_concurrency, 32)',
        parseConcurrency,
      ),
  )
    .addHelpText(
      'after',
      examples(
        'CKB_DATABASE_URL=postgres://ckb@db/ckb CKB_LANCEDB_URI=/mnt/ckb/db ckb worker',
        'ckb worker --concurrency 8 --database-url postgres://ckb@db/ckb --lancedb-uri s3://bucket/ckb --files-uri /mnt/ckb/files',
      ),
    )
    .action(async (flags: WorkerFlags, command: Command) => {
      const running = await runInForeground(command, {
        ...storageFlags(flags),
        api: false,
        concurrency: flags.concurrency,
      });
      if (running) process.stdout.write(`worker ${process.pid} is ingesting\n`);
    });

  const daemon = program.command('daemon').description('Run the daemon in the background');

  daemon
    .command('start')
    .description('Start the daemon in the background (if it is not running); prints its URL')
    .action(async (_flags: object, command: Command) => {
      const { config, output } = await localConfig(command);
      const { isAnswering, isLoopback, startDaemon } = await import('./daemon-process.ts');
      if (await isAnswering(config.url)) {
        output.notice(`the daemon is already running at ${config.url}`);
      } else {
        if (!isLoopback(config.url)) {
          command.error(`can only start a local daemon; ${config.url} is not a loopback http URL`, {
            exitCode: 2,
          });
        }
        const pid = await startDaemon(config.home, config.url);
        output.notice(`daemon started (pid ${pid}), logging to ${config.home}/logs/daemon.log`);
      }
      output.line(config.url);
    });

  daemon
    .command('stop')
    .description('Stop the background daemon')
    .action(async (_flags: object, command: Command) => {
      const { config, output } = await localConfig(command);
      const { stopDaemon } = await import('./daemon-process.ts');
      const stopped = await stopDaemon(config.home);
      if (output.json) output.printJson(stopped ? { stopped: true, pid: stopped.pid } : { stopped: false });
      else output.notice(stopped ? 'daemon stopped' : `no daemon is running for ${config.home}`);
    });

  daemon
    .command('status')
    .description('Is the daemon running? (exit 3 when it is not)')
    .action(async (_flags: object, command: Command) => {
      const { config, output } = await localConfig(command);
      const { readDaemonState, isAnswering } = await import('./daemon-process.ts');
      const { EXIT, ExitError } = await import('./exit.ts');
      const state = readDaemonState(config.home);
      const url = state?.url ?? config.url;
      const running = await isAnswering(url);
      if (output.json) {
        output.printJson({ running, url, pid: state?.pid ?? null, started_at: state?.started_at ?? null });
      } else if (running) {
        output.printFields([
          ['status', output.colour.green('running')],
          ['url', url],
          ['pid', state ? String(state.pid) : 'unknown'],
          ['started', state?.started_at ?? 'unknown'],
          ['home', config.home],
        ]);
      }
      if (!running) throw new ExitError(`the daemon is not running (looked at ${url})`, EXIT.unreachable);
    });

  daemon
    .command('logs')
    .description("Print the daemon's log")
    .option('-f, --follow', 'keep printing new lines as they are written')
    .action(async (flags: { follow?: boolean }, command: Command) => {
      const { config } = await localConfig(command);
      const { printLog } = await import('./logs.ts');
      await printLog(config.home, flags.follow === true);
    });
}
