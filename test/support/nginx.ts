import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** Debian's nginx (`apt-get install nginx`), when the machine has it. */
export function findNginx(): string | undefined {
  for (const directory of ['/usr/sbin', ...(process.env['PATH'] ?? '').split(':')]) {
    const path = join(directory, 'nginx');
    if (existsSync(path)) return path;
  }
  return undefined;
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

/**
 * The nginx configuration of the README's "Running on several machines", with the replicas' addresses and the
 * port to listen on put in place of the example's: the configuration the tests run is the one users copy.
 */
export async function readmeNginxConfig(replicas: string[], port: number): Promise<string> {
  const readme = await readFile(resolve(import.meta.dirname, '../../README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Running on several machines'));
  const block = /```nginx\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('README.md has no nginx block under "Running on several machines"');
  const examples = [...block.matchAll(/server (\S+:\d+)/g)].map((match) => match[1]!);
  if (examples.length !== replicas.length)
    throw new Error(`the README's nginx block names ${examples.length} replicas, not ${replicas.length}`);
  let config = block.replace(/listen \d+;/, `listen 127.0.0.1:${port};`);
  for (const [position, example] of examples.entries())
    config = config.replace(`server ${example}`, `server ${replicas[position]}`);
  return config;
}

export interface RunningNginx {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Runs nginx in the foreground with `site` (an `upstream` and a `server` block) in a directory of its own. */
export async function startNginx(nginx: string, site: string, port: number): Promise<RunningNginx> {
  const directory = await mkdtemp(join(tmpdir(), 'ckb-nginx-'));
  // As root, nginx's workers run as another user, which must write its temporary files here.
  await chmod(directory, 0o777);
  for (const name of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'])
    await mkdir(join(directory, name), { mode: 0o777 });
  await writeFile(join(directory, 'ckb.conf'), site);
  await writeFile(
    join(directory, 'nginx.conf'),
    `daemon off;
worker_processes 1;
pid ${directory}/nginx.pid;
error_log ${directory}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${directory}/body;
  proxy_temp_path ${directory}/proxy;
  fastcgi_temp_path ${directory}/fastcgi;
  uwsgi_temp_path ${directory}/uwsgi;
  scgi_temp_path ${directory}/scgi;
  include ${directory}/ckb.conf;
}
`,
  );
  const child = spawn(
    nginx,
    ['-p', directory, '-c', join(directory, 'nginx.conf'), '-e', join(directory, 'error.log')],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = once(child, 'exit');
  const deadline = Date.now() + 10_000;
  while (!(await answers(port))) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}`);
    if (Date.now() > deadline) throw new Error(`nginx did not listen on ${port}: ${stderr}`);
    await new Promise((done) => setTimeout(done, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      await rm(directory, { recursive: true, force: true });
    },
  };
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolveAnswer) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolveAnswer(true);
    });
    socket.once('error', () => resolveAnswer(false));
  });
}
