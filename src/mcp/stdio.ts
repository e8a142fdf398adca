import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { describe } from '../cli/failure.ts';
import type { GlobalOptions } from '../cli/options.ts';
import { openSession } from '../cli/session.ts';
import { CkbApiError, type CkbClient, DaemonUnreachableError } from '../client/index.ts';
import { createMcpServer, type KnowledgeBase, type SourceToAdd, withParam } from './tools.ts';

/**
 * The daemon's client, made at the first tool call: an MCP client starts `ckb mcp` with its own session, and a
 * daemon that is down then (or stops later) is started again as other commands do, or the call reports why not.
 */
function connector(options: GlobalOptions) {
  let session: Promise<CkbClient> | undefined;
  const connect = (): Promise<CkbClient> => {
    session ??= openSession(options).then(
      ({ client }) => client,
      (error: unknown) => {
        session = undefined;
        throw error;
      },
    );
    return session;
  };
  return async <T>(call: (client: CkbClient) => Promise<T>): Promise<T> => {
    try {
      return await call(await connect());
    } catch (error) {
      if (!(error instanceof DaemonUnreachableError)) throw error;
      // Refused connections reached no daemon, so nothing was done: start one (if allowed) and try once more.
      session = undefined;
      return call(await connect());
    }
  };
}

/** A path as a person or a model writes it: `~/…` is the home folder, anything relative is from the working folder. */
function localPath(path: string): string {
  if (path === '~' || path.startsWith('~/')) return resolve(homedir(), path.slice(2));
  return resolve(path);
}

function checkedFile(path: string): string {
  const full = localPath(path);
  const stats = statSync(full, { throwIfNoEntry: false });
  if (stats === undefined) throw new Error(`no such file: ${full}`);
  if (stats.isDirectory()) {
    throw new Error(
      `${full} is a folder: add its files one at a time, or run \`ckb source add --app ID --file ${full}\``,
    );
  }
  return full;
}

function clientKnowledgeBase(withClient: ReturnType<typeof connector>): KnowledgeBase {
  async function addSource(source: SourceToAdd, signal: AbortSignal) {
    return withClient(async (client) => {
      if (source.type !== 'file' || /^https?:\/\//i.test(source.content)) {
        return client.sources.create(source, { signal });
      }
      // A local file goes up through a pre-signed URL, as `ckb source add --file` sends it.
      const file = await client.files.upload(checkedFile(source.content), { signal });
      return client.sources.create({ ...source, content: file.id }, { signal });
    });
  }

  return {
    listApplications: ({ signal }) => withClient((client) => client.applications.list(undefined, { signal })),
    getApplication: (id, { signal }) => withClient((client) => client.applications.get(id, { signal })),
    listSources: (id, { signal }) =>
      withClient((client) => client.applications.sources(id, undefined, { signal })),
    getSource: (id, { signal }) => withClient((client) => client.sources.get(id, { signal })),
    search: (id, input, { signal }) =>
      withClient((client) => client.applications.search(id, input, { signal })),
    ask: (input, { signal }) => withClient((client) => client.conversations.create(input, { signal })),
    addSource: (source, { signal }) => addSource(source, signal),
    describeError: (error) =>
      error instanceof CkbApiError
        ? withParam(error.message, error.param)
        : (describe(error) ?? String(error)),
  };
}

/** `ckb mcp`: MCP over stdin/stdout until the client closes stdin. Only protocol messages go to stdout. */
export async function serveMcpOverStdio(options: GlobalOptions, version: string): Promise<void> {
  const server = createMcpServer(clientKnowledgeBase(connector(options)), { version, files: 'local-path' });
  const closed = new Promise<void>((resolvePromise) => {
    process.stdin.once('end', resolvePromise);
    process.stdin.once('close', resolvePromise);
  });
  await server.connect(new StdioServerTransport());
  await closed;
  await server.close();
}
