import { Validator } from '@cfworker/json-schema';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ServiceDeclarationError } from './compile-route';
import { defineService, method } from './define';
import { openApi30Schema } from './fixtures/openapi-3.0-schema';
import { errorDetail, errorText } from '../errors/catalogue';
import { mergeOpenApi, openApiDocument } from './openapi';
import { OPENAPI_WORDS } from './openapi-words';
import type { JsonObject } from './openapi-schema';

// Routes declare the catalogue codes they answer beyond the common refusals (`errors`): the
// document lists each under its status, as a Problem with the code's own members and headers.
const service = defineService({
  name: 'svc',
  prefix: '/modulesvc',
  methods: {
    PostAsk: method({
      doc: 'Asks. @handler(streamResponse)',
      params: { body: z.object({ prompt: z.string() }) },
      stream: z.object({ content: z.string() }),
      errors: ['quota_exceeded'],
    }),
    PostPut: method({
      doc: 'Puts a file.',
      params: { body: z.object({ id: z.uuid() }) },
      errors: ['file_too_large', 'collection_limit_reached'],
    }),
    GetPlain: method({ doc: 'Declares nothing.' }),
  },
});
const document = openApiDocument(service);
const responses = (path: string, verb: string) =>
  document.paths[path]![verb]!.responses as Record<string, JsonObject>;

describe('declared errors in the OpenAPI document', () => {
  it('lists a declared code under its status, with its headers and its own problem', () => {
    expect(Object.keys(responses('/modulesvc/ask', 'post'))).toEqual([
      '200',
      '400',
      '413',
      '429',
      'default',
    ]);
    expect(responses('/modulesvc/ask', 'post')['429']).toEqual({
      description: expect.stringMatching(/^`quota_exceeded`: You have reached your daily limit/),
      headers: {
        'Retry-After': {
          description: 'Seconds until the daily limits reset.',
          schema: expect.objectContaining({ type: 'integer', minimum: expect.any(Number) }),
        },
      },
      content: {
        'application/problem+json': {
          schema: { $ref: '#/components/schemas/QuotaExceededProblem' },
        },
      },
    });
    // Routes that declare nothing keep the common answers only.
    expect(Object.keys(responses('/modulesvc/plain', 'get'))).toEqual(['204', 'default']);
  });

  it('documents the 413 of a body over its limit on every route that takes a body', () => {
    // Not declared, yet answered (body-limit.ts runs before every mounted route).
    expect(responses('/modulesvc/ask', 'post')['413']).toEqual({
      description: expect.stringMatching(/^`body_too_large`: /),
      content: {
        'application/problem+json': {
          schema: { $ref: '#/components/schemas/BodyTooLargeProblem' },
        },
      },
    });
    // A route whose over-limit body has its own answer declares it, and only it is listed.
    const put = responses('/modulesvc/put', 'post')['413'] as JsonObject;
    expect(put.description).toMatch(/^`file_too_large`: /);
    expect(put.description).not.toMatch(/body_too_large/);
  });

  it('describes the code’s problem as the Problem and its members (resets_at, limit, used, allowed)', () => {
    const problem = document.components.schemas.QuotaExceededProblem as { allOf: JsonObject[] };
    expect(problem.allOf[0]).toEqual({ $ref: '#/components/schemas/Problem' });
    expect(problem.allOf[1]).toEqual({
      type: 'object',
      required: ['status', 'code', 'resets_at'],
      properties: {
        status: { type: 'integer', enum: [429] },
        code: { type: 'string', enum: ['quota_exceeded'] },
        resets_at: expect.objectContaining({ type: 'string', format: 'date-time' }),
        limit: expect.objectContaining({ enum: ['user_daily_questions', 'user_daily_tokens'] }),
        used: expect.objectContaining({ type: 'integer' }),
        allowed: expect.objectContaining({ type: 'integer' }),
      },
    });
    // No additionalProperties: false in a half of the allOf, which would refuse the other's.
    expect(JSON.stringify(problem)).not.toContain('additionalProperties');
  });

  it('gives several codes of one status one response: one of their problems', () => {
    const tooLarge = responses('/modulesvc/put', 'post')['413']!;
    expect(tooLarge.description).toMatch(/^`file_too_large`: .+\n\n`collection_limit_reached`: /);
    expect(tooLarge.headers).toBeUndefined();
    expect(tooLarge.content).toEqual({
      'application/problem+json': {
        schema: {
          oneOf: [
            { $ref: '#/components/schemas/FileTooLargeProblem' },
            { $ref: '#/components/schemas/CollectionLimitReachedProblem' },
          ],
        },
      },
    });
    const full = document.components.schemas.CollectionLimitReachedProblem as {
      allOf: JsonObject[];
    };
    expect(Object.keys(full.allOf[1]!.properties as JsonObject)).toEqual([
      'status',
      'code',
      'limit',
      'used',
      'allowed',
    ]);
  });

  it('the document and a merge of it stay valid OpenAPI 3.0, every reference resolved', () => {
    const validate = (doc: unknown) =>
      new Validator(openApi30Schema, '4', false)
        .validate(doc)
        .errors.map((e) => `${e.instanceLocation}: ${e.error}`);
    expect(validate(document)).toEqual([]);
    const merged = mergeOpenApi([document, openApiDocument(service2())]);
    expect(validate(merged)).toEqual([]);
    // The same code's problem in two modules is one schema.
    expect(Object.keys(merged.components.schemas).filter((n) => n.startsWith('Quota'))).toEqual([
      'QuotaExceededProblem',
    ]);
  });

  it('refuses a code outside the catalogue, one twice, and a status the common answers describe', () => {
    const declare = (errors: string[]) =>
      defineService({
        name: 'bad',
        prefix: '/bad',
        methods: { PostX: method({ errors: errors as never }) },
      });
    expect(() => declare(['no_such_code'])).toThrow(ServiceDeclarationError);
    expect(() => declare(['quota_exceeded', 'quota_exceeded'])).toThrow(/listed twice/);
    expect(() => declare(['validation_failed'])).toThrow(/already covers/);
    expect(() => declare(['login_required'])).toThrow(/already covers/);
    expect(() => declare(['no_relevant_knowledge'])).toThrow(/already covers/);
  });
});

describe('declared errors in the Chinese document', () => {
  const chinese = openApiDocument(service, { language: 'zh', summaries: {} });
  const answers = (path: string, verb: string) =>
    chinese.paths[path]![verb]!.responses as Record<string, JsonObject>;

  it('describes each code by the catalogue’s Chinese words, the codes unchanged', () => {
    expect(answers('/modulesvc/ask', 'post')['429']!.description).toBe(
      `\`quota_exceeded\`：${errorText('quota_exceeded', 'zh')}`,
    );
    expect(answers('/modulesvc/put', 'post')['413']!.description).toBe(
      [
        `\`file_too_large\`：${errorText('file_too_large', 'zh')}`,
        `\`collection_limit_reached\`：${errorText('collection_limit_reached', 'zh')}`,
      ].join('\n\n'),
    );
    expect(chinese.components.schemas.QuotaExceededProblem!.description).toBe(
      '`quota_exceeded` 的问题详情，带有其自身的字段。',
    );
  });

  it('writes none of its own sentences in English', () => {
    const text = JSON.stringify(chinese);
    const english = Object.values(OPENAPI_WORDS.en).filter(
      (value): value is string => typeof value === 'string',
    );
    expect(english.length).toBeGreaterThan(10);
    for (const sentence of english)
      expect(text).not.toContain(JSON.stringify(sentence).slice(1, -1));
    expect(text).not.toContain(errorDetail('quota_exceeded'));
    expect(text).not.toContain('Server-Sent Events. Each');
    // The same structure as the English one: only words differ.
    expect(Object.keys(chinese.paths)).toEqual(Object.keys(document.paths));
    expect(Object.keys(chinese.components.responses)).toEqual(
      Object.keys(document.components.responses),
    );
  });
});

function service2() {
  return defineService({
    name: 'other',
    prefix: '/moduleother',
    methods: { PostAsk: method({ doc: 'Asks too.', errors: ['quota_exceeded'] }) },
  });
}
