// The served OpenAPI documents tell the truth about the MCP routes (shared/contracts/chat.ts):
// every answer the transport and the route's steps really give, sent through the gateway, is
// declared under its status with its media type, body schema and headers.
import { beforeAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '#shared/service';
import { undescribed } from '#shared/service/fixtures/answer-matches-document';
import { call, createUser, tokenFor } from '../helpers/auth';

const PATH = '/modulechat/mcp';
const ACCEPT = 'application/json, text/event-stream';
let document: OpenApiDocument;
let key = '';
let login = '';

beforeAll(async () => {
  document = await (await call('/modulechat/openapi.json')).json<OpenApiDocument>();
  const user = await createUser();
  login = await tokenFor(user.username, user.password);
  const res = await call('/moduleauth/api_key', { token: login, json: { name: 'openapi' } });
  key = (await res.json<{ data: { key: string } }>()).data.key;
});

const mcp = (body: string | undefined, headers: Record<string, string> = {}, method = 'POST') =>
  call(PATH, {
    method,
    token: key,
    ...(body !== undefined ? { body } : {}),
    headers: { Accept: ACCEPT, 'Content-Type': 'application/json', ...headers },
  });

const message = (id: number | undefined, method: string) =>
  JSON.stringify({ jsonrpc: '2.0', ...(id !== undefined ? { id } : {}), method, params: {} });

describe('the MCP routes’ real answers are the ones the chat document declares', () => {
  it.each([
    ['a request', () => mcp(message(1, 'ping')), 200],
    ['notifications alone', () => mcp(message(undefined, 'notifications/initialized')), 202],
    ['malformed JSON', () => mcp('{"jsonrpc": "2.0", "id": 1, "method": '), 400],
    ['a batch over 100', () => mcp(`[${Array(101).fill(message(1, 'ping')).join(',')}]`), 400],
    [
      'a client that takes no event stream',
      () => mcp(message(1, 'ping'), { Accept: 'application/json' }),
      406,
    ],
    [
      'a body that is not JSON',
      () => mcp(message(1, 'ping'), { 'Content-Type': 'text/plain' }),
      415,
    ],
    ['a body over 64 KiB', () => mcp(JSON.stringify({ pad: 'x'.repeat(70 * 1024) })), 413],
    [
      'no credential',
      () => call(PATH, { body: message(1, 'ping'), contentType: 'application/json' }),
      401,
    ],
  ] as const)('POST: %s', async (_what, send, status) => {
    const answer = await send();
    expect(answer.status).toBe(status);
    expect(await undescribed(document, PATH, 'post', answer)).toEqual([]);
  });

  it('POST with a login token: the credential refusal the document declares', async () => {
    const answer = await call(PATH, { token: login, json: JSON.parse(message(1, 'ping')) });
    expect(answer.status).toBe(403);
    expect(await undescribed(document, PATH, 'post', answer)).toEqual([]);
  });

  it.each(['GET', 'DELETE'])('%s: 405 with Allow, as declared', async (method) => {
    const answer = await mcp(undefined, {}, method);
    expect(answer.status).toBe(405);
    expect(await undescribed(document, PATH, method.toLowerCase(), answer)).toEqual([]);
  });
});

describe('the chat doors’ refusals before a stream are the ones the chat document declares', () => {
  const chat = (body: unknown) => call('/modulechat/chat', { token: login, json: body });
  const door = (messages: unknown[]) =>
    call('/modulechat/v1/chat/completions', {
      token: key,
      json: { model: 'kbchat', stream: true, messages },
    });
  const tooLong = 'x'.repeat(4001);

  it.each([
    ['a question too long', () => chat({ prompt: tooLong }), 'prompt_too_long'],
    [
      'a body over 64 KiB',
      () => chat({ prompt: 'hello', pad: 'x'.repeat(70 * 1024) }),
      'body_too_large',
    ],
  ] as const)('POST /modulechat/chat: %s', async (_what, send, code) => {
    const answer = await send();
    expect(answer.status).toBe(413);
    expect((await answer.clone().json<{ code: string }>()).code).toBe(code);
    expect(await undescribed(document, '/modulechat/chat', 'post', answer)).toEqual([]);
  });

  it.each([
    ['a question too long', () => door([{ role: 'user', content: tooLong }]), 'prompt_too_long'],
    [
      'system messages too long together',
      () =>
        door([
          { role: 'system', content: 'x'.repeat(3000) },
          { role: 'system', content: 'x'.repeat(3000) },
          { role: 'user', content: 'hello' },
        ]),
      'instructions_too_long',
    ],
    [
      'a body over 1 MiB',
      () => door([{ role: 'user', content: 'hello', pad: 'x'.repeat(1100 * 1024) }]),
      'body_too_large',
    ],
  ] as const)('POST /modulechat/v1/chat/completions: %s', async (_what, send, code) => {
    const answer = await send();
    expect(answer.status).toBe(413);
    expect((await answer.clone().json<{ code: string }>()).code).toBe(code);
    expect(await undescribed(document, '/modulechat/v1/chat/completions', 'post', answer)).toEqual(
      [],
    );
  });
});

describe('a body over its route’s limit: the 413 every module’s document declares', () => {
  it.each([
    ['/moduleknowledge/openapi.json', '/moduleknowledge/collection', 20 * 1024],
    ['/moduleauth/openapi.json', '/moduleauth/api_key', 80 * 1024],
    ['/modulechat/openapi.json', '/modulechat/official_answer', 80 * 1024],
  ])('%s: POST %s', async (documentPath, path, size) => {
    const moduleDocument = await (await call(documentPath)).json<OpenApiDocument>();
    const answer = await call(path, { token: login, json: { name: 'x'.repeat(size) } });
    expect(answer.status).toBe(413);
    expect((await answer.clone().json<{ code: string }>()).code).toBe('body_too_large');
    expect(await undescribed(moduleDocument, path, 'post', answer)).toEqual([]);
  });
});
