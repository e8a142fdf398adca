import { z } from 'zod';

const JsonRpcMessage = z.looseObject({ jsonrpc: z.literal('2.0') });

/** A JSON-RPC 2.0 message (or batch) of the Model Context Protocol; the MCP SDK checks its details. */
export const McpMessage = z
  .union([JsonRpcMessage, z.array(JsonRpcMessage)])
  .meta({ description: 'a JSON-RPC 2.0 message of the Model Context Protocol' });

/**
 * How the MCP transport refuses a message it cannot take (not JSON-RPC, a missing Accept type), as the protocol
 * has it; a missing key, a body over the limit or too many requests are the contract's errors, as everywhere.
 */
export const JsonRpcErrorBody = z.object({
  jsonrpc: z.literal('2.0'),
  error: z.object({ code: z.number().int(), message: z.string() }),
  id: z.union([z.string(), z.number(), z.null()]),
});
