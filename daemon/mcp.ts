import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Context } from 'koa';
import { CreateConversationBody } from '../src/api/conversations.ts';
import { SearchBody } from '../src/api/search.ts';
import { CreateSourceBody } from '../src/api/sources.ts';
import { createMcpServer, type KnowledgeBase, withParam } from '../src/mcp/tools.ts';
import { toErrorResponse } from './errors.ts';
import type { Logger } from './logger.ts';
import { callerOf } from './routes/caller.ts';
import type { Services } from './services/index.ts';
import type { Caller } from './services/keys.ts';
import { parseWith } from './validate.ts';

export interface McpDependencies {
  services: Services;
  logger: Logger;
  version: string;
}

/** The tools' operations on one account, through the services the HTTP routes call. */
function servicesKnowledgeBase(deps: McpDependencies, caller: Caller): KnowledgeBase {
  const { services, logger } = deps;
  const { account } = caller;
  return {
    listApplications: async () => services.applications.list(account, {}),
    getApplication: async (id) => services.applications.get(account, id),
    listSources: async (id) => services.sources.listForApplication(account, id, {}),
    getSource: async (id) => services.sources.get(account, id),
    search: (id, input, { signal }) =>
      services.search.search(account, id, parseWith(SearchBody, input), signal),
    async ask(input, { signal }) {
      const body = parseWith(CreateConversationBody, input);
      for await (const event of await services.conversations.turn(account, body, signal)) {
        if (event.type === 'finish') return event.reply;
      }
      throw new Error('the turn ended without a reply');
    },
    addSource: async (source) => services.sources.create(caller, parseWith(CreateSourceBody, source)),
    describeError(error) {
      const response = toErrorResponse(error);
      if (response.internal) {
        logger.log('error', 'MCP tool failed', { error: String(error), stack: (error as Error).stack });
      }
      return withParam(response.body.error.message, response.body.error.param);
    },
  };
}

/**
 * One MCP request over Streamable HTTP, stateless: a server for the key's account answers it and is closed with
 * the response, so nothing is kept between requests and each is authenticated on its own.
 */
export async function handleMcpRequest(ctx: Context, body: unknown, deps: McpDependencies): Promise<void> {
  const server = createMcpServer(servicesKnowledgeBase(deps, callerOf(ctx)), {
    version: deps.version,
    files: 'remote',
  });
  // Without a sessionIdGenerator the transport is stateless: no session id is issued or required.
  const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
  ctx.respond = false;
  ctx.res.once('close', () => {
    // Closing the server aborts a tool still running for a client that left.
    server.close().catch(() => undefined);
  });
  await server.connect(transport);
  await transport.handleRequest(ctx.req, ctx.res, body);
}
