import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Principal } from '#shared/auth/roles';
import type { chatService } from '#shared/contracts/chat';
import type { ServiceImpl } from '#shared/service';
import { mcpServer } from '../mcp/server';

type Impl = ServiceImpl<typeof chatService, ChatEnv, Principal>;

/** The route's name, for the module's body limit. */
export const MCP_ROUTE = 'PostMcp';
/**
 * A tool call is a question (4,000 characters), a few ids and filters: 64 KiB holds any valid
 * one several times over, and nothing bigger is read (413 before the key is looked up).
 */
export const MCP_MAX_BODY_BYTES = 64 * 1024;

/**
 * The Model Context Protocol's Streamable HTTP transport, stateless: every POST is answered on
 * its own by a server made for it, as JSON (the tools' answers are complete before they are
 * sent: nothing streams, and the caller's session is settled before the answer goes out). The
 * transport answers malformed messages itself (400 with a JSON-RPC error, 406 for a client
 * that does not accept JSON, 415 for a body that is not JSON). A batch is refused before it.
 */
export const postMcp: Impl['PostMcp'] = async (_params, ctx) => {
  const request = ctx.http!.req.raw;
  if (await isBatch(request)) return batchRefused();
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: MCP_MAX_BODY_BYTES,
  });
  const server = await mcpServer(ctx);
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    // The answer is complete (JSON, not a stream): nothing is left to send.
    ctx.waitUntil(server.close());
  }
};

/**
 * Whether the body is a JSON-RPC batch (a JSON array). The transport would hand each of its
 * messages (up to 100) to the server without waiting, so their tool calls would run at once,
 * each `ask` passing the daily limits before any of them is counted. Protocol 2025-06-18
 * removed batching, and no client needs it: one message per POST. The body is read from a copy
 * (the module's body limit has bounded it to 64 KiB); a body that is not JSON is left to the
 * transport, whose answer to it is the protocol's.
 */
async function isBatch(request: Request): Promise<boolean> {
  if (!request.body) return false;
  try {
    return Array.isArray(JSON.parse(await request.clone().text()));
  } catch {
    return false;
  }
}

/** A batch's refusal, as the transport itself answers an invalid request: nothing of it ran. */
const batchRefused = () =>
  new Response(
    JSON.stringify({
      jsonrpc: '2.0',
      error: {
        code: -32600,
        message:
          'Invalid Request: batches are not accepted (removed in protocol version 2025-06-18); send one message per POST.',
      },
      id: null,
    }),
    { status: 400, headers: { 'Content-Type': 'application/json' } },
  );

/**
 * A stateless server offers no server-to-client stream and keeps no session to end: the
 * protocol's answer to both is 405 (clients then carry on with POST alone).
 */
const notAllowed = () =>
  new Response(
    JSON.stringify({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Method not allowed: this server is stateless; use POST.' },
      id: null,
    }),
    { status: 405, headers: { Allow: 'POST', 'Content-Type': 'application/json' } },
  );

export const getMcp: Impl['GetMcp'] = () => notAllowed();
export const deleteMcp: Impl['DeleteMcp'] = () => notAllowed();
