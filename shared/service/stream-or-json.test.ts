import { Validator } from '@cfworker/json-schema';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../errors/app-error';
import { createModuleApp } from '../module/module-app';
import { createClient } from './client';
import { defineService, method } from './define';
import { openApi30Schema } from './fixtures/openapi-3.0-schema';
import { mountService } from './mount';
import { openApiDocument } from './openapi';
import { encodeSse, sseStream } from './sse';
import type { JsonObject } from './openapi-schema';
import type { ResultOf } from './types';

/**
 * A streaming method that also declares an `output` (its request chooses: a stream, or the
 * whole answer as JSON) and a `streamEnd` line, as OpenAI's Chat Completions protocol has.
 */
const Chunk = z.object({ delta: z.string() });
const Whole = z.object({ text: z.string() });

const service = defineService({
  name: 'complete',
  prefix: '/modulecomplete',
  methods: {
    CreateCompletion: method({
      doc: '@handler(streamResponse) @path(/v1/completions)',
      params: { body: z.object({ prompt: z.string(), stream: z.boolean().optional() }) },
      stream: Chunk,
      output: Whole,
      envelope: false,
      streamEnd: '[DONE]',
    }),
    CreateEnveloped: method({
      doc: '@handler(streamResponse)',
      params: { body: z.object({ stream: z.boolean() }) },
      stream: Chunk,
      output: Whole,
    }),
  },
});

type Completion = (typeof service.methods)['CreateCompletion'];

function app() {
  const words = (prompt: string) => prompt.split(' ');
  const module = createModuleApp({
    prefix: '/modulecomplete',
    defaultName: 'c',
    nameVariable: 'C',
  });
  return mountService(module, service, {
    CreateCompletion: ({ body }) => {
      if (!body.stream) return { text: body.prompt };
      return (async function* () {
        for (const word of words(body.prompt)) {
          if (word === 'fail') throw new AppError('model_failed', { detail: 'The model failed.' });
          yield { delta: word };
        }
      })();
    },
    CreateEnveloped: ({ body }) =>
      body.stream
        ? (async function* () {
            yield { delta: 'a' };
          })()
        : { text: 'whole' },
  });
}

const post = (path: string, body: unknown) =>
  app().request(`/modulecomplete${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('a stream method with an output', () => {
  it('types its result as the stream or the plain value', () => {
    expectTypeOf<ResultOf<Completion>>().toEqualTypeOf<
      AsyncIterable<{ delta: string }> | { text: string }
    >();
  });

  it('answers a plain result as JSON, envelope as declared', async () => {
    const bare = await post('/v1/completions', { prompt: 'hello there' });
    expect(bare.status).toBe(200);
    expect(bare.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(await bare.json()).toEqual({ text: 'hello there' });

    const enveloped = await post('/enveloped', { stream: false });
    expect(await enveloped.json()).toEqual({ data: { text: 'whole' } });
  });

  it('streams an iterable as SSE, ending a completed stream with the raw end line', async () => {
    const res = await post('/v1/completions', { prompt: 'hello there', stream: true });
    expect(res.headers.get('Content-Type')).toBe('text/event-stream');
    expect(await res.text()).toBe(
      ': open\n\n' +
        'data: {"delta":"hello"}\n\n' +
        'data: {"delta":"there"}\n\n' +
        'data: [DONE]\n\n',
    );
  });

  it('writes no end line after a failure’s last message', async () => {
    const text = await (await post('/v1/completions', { prompt: 'a fail', stream: true })).text();
    expect(text).toContain('data: {"delta":"a"}\n\n');
    expect(text).toContain('event: error');
    expect(text).not.toContain('[DONE]');
  });

  it('lets the typed client read either answer, and stop at the end line', async () => {
    const server = app();
    const client = createClient(service, {
      baseUrl: 'http://c.test',
      fetch: async (request) => {
        expect(request.headers.get('Accept')).toBe('text/event-stream, application/json');
        return server.fetch(request);
      },
    });
    expect(await client.CreateCompletion({ body: { prompt: 'x y' } })).toEqual({ text: 'x y' });
    const stream = await client.CreateCompletion({ body: { prompt: 'x y', stream: true } });
    const seen: unknown[] = [];
    for await (const item of stream as AsyncIterable<unknown>) seen.push(item);
    expect(seen).toEqual([
      { event: 'message', data: { delta: 'x' } },
      { event: 'message', data: { delta: 'y' } },
    ]);
    expect(await client.CreateEnveloped({ body: { stream: false } })).toEqual({ text: 'whole' });
  });

  it('is described with both media types and its end line, as valid OpenAPI 3.0', () => {
    const document = openApiDocument(service);
    const ok = (
      document.paths['/modulecomplete/v1/completions']?.post?.responses as Record<
        string,
        JsonObject
      >
    )['200'] as { content: Record<string, JsonObject>; description: string };
    expect(ok.content['text/event-stream']).toMatchObject({ 'x-sse-end': '[DONE]' });
    expect(ok.content['application/json']?.schema).toMatchObject({
      properties: { text: { type: 'string' } },
    });
    expect(ok.description).toContain('`data: [DONE]`');
    const enveloped = (
      document.paths['/modulecomplete/enveloped']?.post?.responses as Record<string, JsonObject>
    )['200'] as { content: Record<string, JsonObject> };
    expect(enveloped.content['application/json']?.schema).toMatchObject({
      required: ['data'],
    });
    const result = new Validator(openApi30Schema, '4', false).validate(document);
    expect(result.errors).toEqual([]);
  });
});

describe('sseStream end line', () => {
  it('is refused when it is not one line', () => {
    const source = (async function* () {})();
    expect(() => sseStream(source, { onError: () => null, end: 'a\nb' })).toThrow(/one non-empty/);
  });

  it('is not written to a client that went away', async () => {
    const controller = new AbortController();
    controller.abort();
    const source = (async function* () {
      yield { a: 1 };
    })();
    const body = sseStream(source, {
      onError: () => null,
      end: '[DONE]',
      signal: controller.signal,
    });
    const text = await new Response(body).text().catch(() => '');
    expect(text).not.toContain('[DONE]');
    expect(encodeSse({ a: 1 })).toBe('data: {"a":1}\n\n');
  });
});
