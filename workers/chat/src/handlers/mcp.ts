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
 * that does not accept JSON, 415 for a body that is not JSON).
 */
export const postMcp: Impl['PostMcp'] = async (_params, ctx) => {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: MCP_MAX_BODY_BYTES,
  });
  const server = await mcpServer(ctx);
  await server.connect(transport);
  try {
    return await transport.handleRequest(ctx.http!.req.raw);
  } finally {
    // The answer is complete (JSON, not a stream): nothing is left to send.
    ctx.waitUntil(server.close());
  }
};

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
