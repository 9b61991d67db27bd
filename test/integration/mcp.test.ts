import { exports } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { makeTextPdf } from '../../dev/fixtures/pdf-builder';
import { DEFAULT_ERROR_TEXTS } from '../../workers/chat/src/answer/language';
import { call, createUser, tokenFor } from '../helpers/auth';
import { queryRows } from '../helpers/database';
import { storeCounts } from '../helpers/hostile';
import { callTool as tool, MCP_URL, mcpClient as connect, type ToolError } from '../helpers/mcp';

// The MCP server through the gateway, driven by the official SDK's own client over its
// Streamable HTTP transport (test/helpers/mcp.ts), as Claude Desktop or any MCP client would
// reach it.

async function apiKeyFor(user: { username: string; password: string }) {
  const login = await tokenFor(user.username, user.password);
  const res = await call('/moduleauth/api_key', { token: login, json: { name: 'mcp client' } });
  expect(res.status, await res.clone().text()).toBe(200);
  return { key: (await res.json<{ data: { key: string } }>()).data.key, login };
}

const PAGES = [
  'Quillmoor refund rule. Passenger tickets are refunded within 14 days of the request, less a handling fee of 19 euros.',
  'Quillmoor refund rule for freight. Freight consignments are refunded within 30 days of the claim, with no handling fee.',
  'Freight yard hours. The freight yard and the freight office open at 6:00 for freight deliveries and freight pickups.',
];

let owner: Client;
let other: Client;
let ownerKey = '';
let ownerLogin = '';
let otherLogin = '';
let collection = '';
let file = '';

beforeAll(async () => {
  const ownerUser = await createUser();
  ({ key: ownerKey, login: ownerLogin } = await apiKeyFor(ownerUser));
  const otherUser = await createUser();
  const otherCredentials = await apiKeyFor(otherUser);
  otherLogin = otherCredentials.login;
  const res = await call('/moduleknowledge/collection', { token: ownerKey, json: { name: 'MCP' } });
  collection = (await res.json<{ data: { id: string } }>()).data.id;
  const form = new FormData();
  form.append('file', new File([makeTextPdf(PAGES)], 'quillmoor.pdf'));
  form.append('collection_id', collection);
  const uploaded = await call('/moduleknowledge/upload', { token: ownerKey, body: form });
  expect(uploaded.status, await uploaded.clone().text()).toBe(200);
  file = (await uploaded.json<{ data: { id: string } }>()).data.id;
  owner = await connect(ownerKey);
  other = await connect(otherCredentials.key);
});

afterAll(async () => {
  await owner?.close();
  await other?.close();
});

describe('the MCP server', () => {
  it('introduces itself and lists four tools, described in English and Chinese, sizes bounded', async () => {
    expect(owner.getServerVersion()?.name).toBe('kbchat');
    const { tools } = await owner.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['ask', 'list_files', 'read_page', 'search']);
    for (const t of tools) {
      expect(t.description).toMatch(/[A-Za-z]{4,}.* \/ .*[\u4e00-\u9fff]/s);
    }
    const search = tools.find((t) => t.name === 'search')!;
    const properties = search.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(search.inputSchema.required).toEqual(['question']);
    expect(properties.question).toMatchObject({ type: 'string', maxLength: 4000 });
    expect(properties.top).toMatchObject({ minimum: 1, maximum: 50 });
    expect(Object.keys(properties.filters!.properties as object)).toContain('doc_number');
  });

  it('search: passages with file, page, chunk id, similarity and text, as the query route finds them', async () => {
    const result = await tool<{ passages: Record<string, unknown>[] }>(owner, 'search', {
      question: 'Quillmoor refund rule for freight',
      collection,
      top: 3,
    });
    expect(result.isError).toBeFalsy();
    const [best] = result.structuredContent.passages;
    expect(best).toMatchObject({
      file_id: file,
      file_name: 'quillmoor.pdf',
      collection_id: collection,
      page: 2,
      chunk_id: expect.any(Number),
      similarity: expect.any(Number),
    });
    expect(best!.text).toContain('30 days');
    const http = await call(
      `/moduleknowledge/query?text=${encodeURIComponent('Quillmoor refund rule for freight')}&top=3&collection_id=${collection}`,
      { token: ownerKey },
    );
    const rows = (await http.json<{ data: { id: number }[] }>()).data;
    expect(result.structuredContent.passages.map((p) => p.chunk_id)).toEqual(rows.map((r) => r.id));
    // The same text for the client's model.
    const text = (result.content as { type: string; text: string }[])[0]!.text;
    expect(JSON.parse(text)).toEqual(result.structuredContent);
  });

  it('search with document filters that no document matches finds nothing', async () => {
    const result = await tool<{ passages: unknown[] }>(owner, 'search', {
      question: 'Quillmoor refund rule',
      collection,
      filters: { doc_number: '国办发〔2099〕1号' },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.passages).toEqual([]);
  });

  it('ask: the door’s answer, with citations (file, page, chunk id) and sentence support', async () => {
    const result = await tool<{
      answer: string;
      citations: Record<string, unknown>[];
      support: { supported: boolean; text: string }[];
    }>(owner, 'ask', { question: 'What is the Quillmoor refund rule for freight?', collection });
    expect(result.isError).toBeFalsy();
    const { answer, citations, support } = result.structuredContent;
    expect(answer).toContain('30 days');
    expect(citations[0]).toMatchObject({
      number: expect.any(Number),
      file_id: file,
      page: 2,
      chunk_id: expect.any(Number),
    });
    expect(support.length).toBeGreaterThan(0);
    expect(support.some((s) => s.supported)).toBe(true);
    const text = (result.content as { text: string }[])[0]!.text;
    expect(text).toContain(`p. 2`);
    expect(text).toContain(file);
  });

  it('ask: a question the knowledge base cannot answer is a refusal, as a tool error', async () => {
    const result = await tool<{ refusal: { code: string } }>(owner, 'ask', {
      question: 'Zebra migration timetable in Antarctica',
      collection,
    });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]!.text).toBe(
      DEFAULT_ERROR_TEXTS.en.no_relevant_knowledge,
    );
    expect(result.structuredContent.refusal.code).toBe('no_relevant_knowledge');
  });

  it('ask: files, and a refusal of collection and files together', async () => {
    const result = await tool<{ citations: { file_id: string }[] }>(owner, 'ask', {
      question: 'When does the freight yard open?',
      files: [file],
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.citations[0]!.file_id).toBe(file);
    const both = await tool<ToolError>(owner, 'ask', {
      question: 'When does the freight yard open?',
      files: [file],
      collection,
    });
    expect(both.isError).toBe(true);
    expect(both.structuredContent.error.code).toBe('validation_failed');
  });

  it('list_files: the caller’s files with status, pages and metadata; filters apply', async () => {
    const result = await tool<{ files: Record<string, unknown>[]; total: number }>(
      owner,
      'list_files',
      { collection },
    );
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.total).toBe(1);
    expect(result.structuredContent.files[0]).toMatchObject({
      id: file,
      name: 'quillmoor.pdf',
      status: 'ready',
      pages: 3,
      collection: { id: collection, name: 'MCP' },
    });
    expect(result.structuredContent.files[0]).toHaveProperty('metadata');
    const filtered = await tool<{ files: unknown[]; total: number }>(owner, 'list_files', {
      collection,
      filters: { doc_number: '国办发〔2099〕1号' },
    });
    expect(filtered.structuredContent).toMatchObject({ files: [], total: 0 });
    const beyond = await tool<{ files: unknown[]; total: number }>(owner, 'list_files', {
      collection,
      page: 2,
    });
    expect(beyond.structuredContent).toMatchObject({ files: [], total: 1, page: 2 });
  });

  it('read_page: a page’s whole text; a page the file does not have is not found', async () => {
    const result = await tool<{ text: string; page: number; pages: number }>(owner, 'read_page', {
      file,
      page: 3,
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ page: 3, pages: 3 });
    expect(result.structuredContent.text).toContain('Freight yard hours');
    const missing = await tool<ToolError>(owner, 'read_page', { file, page: 9 });
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent.error.status).toBe(404);
  });
});

describe('exactly the caller’s access', () => {
  it('another user sees none of it: the same not-found as the HTTP routes', async () => {
    const httpQuery = await call(`/moduleknowledge/query?text=refund&collection_id=${collection}`, {
      token: otherLogin,
    });
    const httpPage = await call(`/moduleknowledge/page?file_id=${file}&page=1`, {
      token: otherLogin,
    });
    const httpList = await call(`/moduleknowledge/list?collection_id=${collection}`, {
      token: otherLogin,
    });
    const codes = async (res: Response) => {
      const body = await res.json<{ code: string }>();
      return { status: res.status, code: body.code };
    };
    const searched = await tool<ToolError>(other, 'search', { question: 'refund', collection });
    const read = await tool<ToolError>(other, 'read_page', { file, page: 1 });
    const listed = await tool<ToolError>(other, 'list_files', { collection });
    const asked = await tool<ToolError>(other, 'ask', { question: 'refund rule', files: [file] });
    for (const [result, http] of [
      [searched, await codes(httpQuery)],
      [read, await codes(httpPage)],
      [listed, await codes(httpList)],
    ] as const) {
      expect(http.status).toBe(404);
      expect(result.isError).toBe(true);
      expect(result.structuredContent.error).toMatchObject(http);
    }
    // Files the caller cannot read are files that do not exist: the door's refusal.
    expect(asked.isError).toBe(true);
    expect(JSON.stringify(asked.structuredContent)).not.toContain('30 days');
    // Searching everything they can read finds nothing of the owner's.
    const everything = await tool<{ passages: { file_id: string }[] }>(other, 'search', {
      question: 'Quillmoor refund rule for freight',
    });
    expect(everything.structuredContent.passages.map((p) => p.file_id)).not.toContain(file);
    const files = await tool<{ files: { id: string }[] }>(other, 'list_files', {});
    expect(files.structuredContent.files.map((f) => f.id)).not.toContain(file);
  });

  it('a login token is refused as the OpenAI door refuses one (403 api_key_required); no credential 401', async () => {
    for (const login of [ownerLogin, otherLogin]) {
      const err = await connect(login).catch((e: unknown) => e);
      expect(String(err)).toContain('403');
    }
    const res = await raw(initialize(), { Authorization: `Bearer ${ownerLogin}` });
    expect(res.status).toBe(403);
    expect((await res.json<{ code: string }>()).code).toBe('api_key_required');
    const anonymous = await raw(initialize(), {});
    expect(anonymous.status).toBe(401);
    const forged = await raw(initialize(), { Authorization: 'Bearer kbc_not-a-real-key' });
    expect(forged.status).toBe(401);
  });
});

const initialize = () =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
    },
  });

function raw(body: BodyInit | null, headers: Record<string, string>, method = 'POST') {
  return exports.default.fetch(
    new Request(MCP_URL, {
      method,
      body,
      headers: {
        Accept: 'application/json, text/event-stream',
        'Content-Type': 'application/json',
        ...headers,
      },
    }),
  );
}

describe('hostile messages', () => {
  const asOwner = () => ({ Authorization: `Bearer ${ownerKey}` });
  const toolCall = (name: string, args: unknown) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name, arguments: args },
    });
  const jsonRpcError = async (res: Response) =>
    (await res.json<{ jsonrpc: string; error: { code: number } }>()).error.code;

  it('malformed JSON, a message that is not JSON-RPC, a wrong content type: 4xx JSON-RPC errors', async () => {
    const before = await storeCounts();
    const broken = await raw('{"jsonrpc": "2.0", "id": 1, "method": ', asOwner());
    expect(broken.status).toBe(400);
    expect(await jsonRpcError(broken)).toBe(-32700);
    const notRpc = await raw(JSON.stringify({ hello: 'world' }), asOwner());
    expect(notRpc.status).toBe(400);
    expect(await jsonRpcError(notRpc)).toBe(-32700);
    const text = await raw(initialize(), { ...asOwner(), 'Content-Type': 'text/plain' });
    expect(text.status).toBe(415);
    const noAccept = await raw(initialize(), { ...asOwner(), Accept: 'text/html' });
    expect(noAccept.status).toBe(406);
    const tooMany = await raw(
      JSON.stringify(
        Array.from({ length: 101 }, (_, i) => ({ jsonrpc: '2.0', method: 'ping', id: i })),
      ),
      asOwner(),
    );
    expect(tooMany.status).toBe(400);
    expect(await storeCounts()).toEqual(before);
  });

  it('a batch (a JSON array) is refused whole before anything runs: no model is asked, nothing is counted', async () => {
    // Batches would run their tool calls at once, each passing the daily limits before any of
    // them is counted; protocol 2025-06-18 removed batching.
    const user = await createUser();
    const { key } = await apiKeyFor(user);
    const tag = `Batchwren${crypto.randomUUID().slice(0, 8)}`;
    const asks = Array.from({ length: 3 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i + 1,
      method: 'tools/call',
      params: { name: 'ask', arguments: { question: `What does ${tag} ${i} cost?` } },
    }));
    for (const batch of [asks, asks.slice(0, 1), [{ jsonrpc: '2.0', method: 'ping', id: 1 }]]) {
      const res = await raw(JSON.stringify(batch), {
        Authorization: `Bearer ${key}`,
        'Mcp-Protocol-Version': '2025-06-18',
      });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/json');
      const body = await res.json<{ jsonrpc: string; id: unknown; error: { code: number } }>();
      expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    }
    const modelRequests = await fetch(`${inject('stack').modelControlUrl}/requests`);
    expect(JSON.stringify(await modelRequests.json())).not.toContain(tag);
    const usage = await queryRows(sql`select 1 from usage_daily where user_id = ${user.id}::uuid`);
    expect(usage).toEqual([]);
    // One message per POST is answered as before.
    const single = await raw(JSON.stringify({ jsonrpc: '2.0', method: 'ping', id: 9 }), {
      Authorization: `Bearer ${key}`,
      'Mcp-Protocol-Version': '2025-06-18',
    });
    expect(single.status).toBe(200);
    expect(await single.json()).toMatchObject({ jsonrpc: '2.0', id: 9, result: {} });
  });

  it('an oversized body is refused unread (413); oversized arguments are invalid arguments', async () => {
    const before = await storeCounts();
    const huge = await raw(toolCall('search', { question: 'x'.repeat(100 * 1024) }), asOwner());
    expect(huge.status).toBe(413);
    const long = await tool<unknown>(owner, 'search', { question: 'refund '.repeat(700) });
    expect(long.isError).toBe(true);
    expect((long.content as { text: string }[])[0]!.text).toMatch(/question/);
    const manyFiles = await tool<unknown>(owner, 'ask', {
      question: 'refund',
      files: Array.from({ length: 101 }, () => file),
    });
    expect(manyFiles.isError).toBe(true);
    const badTop = await tool<unknown>(owner, 'search', { question: 'refund', top: 10_000 });
    expect(badTop.isError).toBe(true);
    const badDate = await tool<unknown>(owner, 'list_files', {
      filters: { issued_from: 'yesterday' },
    });
    expect(badDate.isError).toBe(true);
    expect(await storeCounts()).toEqual(before);
  });

  it('an unknown tool and an unknown method are errors; notifications alone are 202', async () => {
    const unknown = await tool<unknown>(owner, 'drop_tables', {});
    expect(unknown.isError).toBe(true);
    expect((unknown.content as { text: string }[])[0]!.text).toContain('drop_tables');
    const method = await raw(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'resources/list' }), {
      ...asOwner(),
      'Mcp-Protocol-Version': '2025-06-18',
    });
    expect(method.status).toBe(200);
    expect(await jsonRpcError(method)).toBe(-32601);
    const notification = await raw(
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      { ...asOwner(), 'Mcp-Protocol-Version': '2025-06-18' },
    );
    expect(notification.status).toBe(202);
  });

  it('GET and DELETE: 405 (a stateless server has no stream to open, no session to end)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await raw(null, { ...asOwner(), Accept: 'text/event-stream' }, method);
      expect(res.status).toBe(405);
      expect(res.headers.get('Allow')).toBe('POST');
      expect(await jsonRpcError(res)).toBe(-32000);
    }
  });
});
