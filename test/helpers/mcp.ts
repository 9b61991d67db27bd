// The MCP server through the gateway, driven by the official SDK's own client over its
// Streamable HTTP transport, as Claude Desktop or any MCP client would reach it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { exports } from 'cloudflare:workers';

export const MCP_URL = 'http://kb.test/modulechat/mcp';

const gatewayFetch = (url: string | URL, init?: RequestInit) =>
  exports.default.fetch(new Request(url, init));

/** An MCP client connected (initialized) with `bearer` as its credential. */
export async function mcpClient(bearer: string): Promise<Client> {
  const client = new Client({ name: 'kbchat-mcp-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(MCP_URL), {
    requestInit: { headers: { Authorization: `Bearer ${bearer}` } },
    fetch: gatewayFetch,
  });
  await client.connect(transport);
  return client;
}

export type Structured<T> = CallToolResult & { structuredContent: T };
/** A tool error's `structuredContent`: the refusal of the catalogue, with its own members. */
export type ToolError = { error: { status: number; code: string; message: string } };

/** Calls a tool; its result with `structuredContent` typed as the caller expects. */
export const callTool = async <T>(client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as Structured<T>;
