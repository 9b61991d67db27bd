import { z } from 'zod';

/**
 * What the MCP transport answers a message it cannot take (JSON-RPC 2.0): the SDK's
 * Streamable HTTP transport writes it with a 4xx (400 malformed, 406, 415) and `id: null`,
 * and this stateless server answers GET and DELETE with it (405).
 */
export const JsonRpcErrorAnswer = z.object({
  jsonrpc: z.literal('2.0'),
  error: z.object({
    /** -32700 not JSON or not JSON-RPC, -32600 an invalid request, -32000 the transport's own. */
    code: z.int(),
    message: z.string(),
    data: z.unknown().optional(),
  }),
  id: z.null(),
});
