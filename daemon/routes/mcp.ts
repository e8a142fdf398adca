import type { McpDependencies } from '../mcp.ts';
import type { Routes } from './endpoint-router.ts';
import type { RouteOptions } from './options.ts';

/**
 * POST /mcp: the Model Context Protocol over Streamable HTTP, behind the same keys as the rest of the API. The
 * MCP SDK is loaded at the first request: a daemon nobody reaches over MCP never pays for it.
 */
export function mcpRoutes(deps: McpDependencies, options: RouteOptions) {
  let mcp: Promise<typeof import('../mcp.ts')> | undefined;
  return {
    // The SDK checks the message itself and refuses a wrong one with the protocol's JSON-RPC error, so the body
    // goes to it unchecked.
    postMcpMessage: {
      own: async (ctx) => {
        const body = await options.readBody(ctx);
        mcp ??= import('../mcp.ts');
        const { handleMcpRequest } = await mcp;
        await handleMcpRequest(ctx, body, deps);
      },
    },
  } satisfies Routes;
}
