import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../service/openapi';
import type { JsonObject } from '../service/openapi-schema';
import { chatService } from './chat';
import { knowledgeService } from './knowledge';

// The documents of the real modules declare what the review found missing: the limits' 429 and
// 413 with their members, and the MCP transport's own answers. (Whether a route's real answers
// match: workers/chat/src/usage/quota-problem.test.ts, workers/knowledge/src/handlers/
// collection-full-problem.test.ts.)
const chat = openApiDocument(chatService);
const knowledge = openApiDocument(knowledgeService);
const responses = (doc: typeof chat, path: string, verb: string) =>
  doc.paths[path]![verb]!.responses as Record<string, JsonObject>;
const schemaOf = (response: JsonObject | undefined, type: string) =>
  (response?.content as Record<string, JsonObject> | undefined)?.[type]?.schema;

describe('the limits’ refusals in the modules’ documents', () => {
  it.each(['/modulechat/chat', '/modulechat/v1/chat/completions'])(
    'POST %s declares 429 quota_exceeded with Retry-After',
    (path) => {
      const tooMany = responses(chat, path, 'post')['429'];
      expect(schemaOf(tooMany, 'application/problem+json')).toEqual({
        $ref: '#/components/schemas/QuotaExceededProblem',
      });
      expect(tooMany?.headers).toHaveProperty('Retry-After');
    },
  );

  it.each(['/moduleknowledge/upload', '/moduleknowledge/file_move'])(
    'POST %s declares 413 collection_limit_reached beside its other 413',
    (path) => {
      const tooLarge = responses(knowledge, path, 'post')['413'];
      expect(schemaOf(tooLarge, 'application/problem+json')).toEqual({
        oneOf: expect.arrayContaining([
          { $ref: '#/components/schemas/CollectionLimitReachedProblem' },
        ]),
      });
      expect(tooLarge?.description).toContain('`collection_limit_reached`');
    },
  );

  it('no other route declares them (the handlers that answer them are those above)', () => {
    const declaring = (doc: typeof chat, status: string) =>
      Object.entries(doc.paths).flatMap(([path, item]) =>
        Object.entries(item)
          .filter(([, op]) =>
            JSON.stringify((op.responses as JsonObject)[status] ?? {}).match(
              /QuotaExceeded|CollectionLimitReached/,
            ),
          )
          .map(([verb]) => `${verb.toUpperCase()} ${path}`),
      );
    expect(declaring(chat, '429')).toEqual([
      'POST /modulechat/chat',
      'POST /modulechat/v1/chat/completions',
    ]);
    expect(declaring(knowledge, '413')).toEqual([
      'POST /moduleknowledge/upload',
      'POST /moduleknowledge/file_move',
    ]);
  });
});

describe('the MCP routes in the chat document', () => {
  const mcp = chat.paths['/modulechat/mcp']!;
  const post = mcp.post!.responses as Record<string, JsonObject>;

  it('POST lists the transport’s statuses: 202 with no body, its 4xx as JSON-RPC errors', () => {
    expect(Object.keys(post)).toEqual([
      '200',
      '202',
      '400',
      '401',
      '403',
      '406',
      '413',
      '415',
      'default',
    ]);
    expect(post['202']).toEqual({ description: expect.any(String) });
    for (const status of ['400', '406', '415']) {
      expect(Object.keys(post[status]!.content as JsonObject), status).toEqual([
        'application/json',
      ]);
      expect(schemaOf(post[status], 'application/json'), status).toMatchObject({
        properties: { jsonrpc: {}, error: { properties: { code: { type: 'integer' } } } },
      });
    }
    // The body limit refuses before the transport reads anything: a problem.
    expect(schemaOf(post['413'], 'application/problem+json')).toEqual({
      $ref: '#/components/schemas/BodyTooLargeProblem',
    });
  });

  it.each(['get', 'delete'])('%s answers 405 only (no 200), with Allow: POST', (verb) => {
    const answers = mcp[verb]!.responses as Record<string, JsonObject>;
    expect(Object.keys(answers)).toEqual(['401', '403', '405', 'default']);
    expect(answers['405']).toMatchObject({
      headers: { Allow: { schema: { type: 'string', enum: ['POST'] } } },
      content: { 'application/json': { schema: { type: 'object' } } },
    });
  });
});
