import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { createModuleApp } from '../module/module-app';
import { AppError } from '../errors/app-error';
import { unauthorised } from './auth-failure';
import { ServiceDeclarationError } from './compile-route';
import { defineService, method } from './define';
import { mountService } from './mount';
import { openApiDocument } from './openapi';
import { isWebResponseSpec, webResponse } from './web-response';

const RpcError = z.object({ jsonrpc: z.literal('2.0'), error: z.object({ code: z.int() }) });
const answer = webResponse({
  200: { description: 'JSON-RPC.', contentTypes: ['application/json'] },
  202: { description: 'Accepted; no body.' },
  400: { description: 'Malformed.', contentTypes: ['application/json'], schema: RpcError },
});

const service = defineService({
  name: 'svc',
  prefix: '/modulesvc',
  methods: {
    PostProtocol: method({ doc: 'Speaks a protocol of its own. @path(/rpc)', output: answer }),
  },
});

function app(seen: { body?: string } = {}) {
  const module = createModuleApp({ prefix: '/modulesvc', defaultName: 'x', nameVariable: 'X' });
  return mountService(
    module,
    service,
    {
      PostProtocol: async (_params, ctx) => {
        const request = ctx.http!.req.raw;
        if (request.headers.get('Authorization') !== 'Bearer ok') throw unauthorised('no');
        seen.body = await request.text();
        if (seen.body === 'fail') throw new AppError('validation_failed', { detail: 'fail' });
        return new Response('{"jsonrpc":"2.0"}', {
          status: 202,
          headers: { 'Content-Type': 'application/json', 'X-Own': 'yes' },
        });
      },
    },
    { authorize: () => undefined, bodyLimit: () => ({ bytes: 16 }) },
  );
}

const post = (body: string, token = 'ok') =>
  new Request('http://local/modulesvc/rpc', {
    method: 'POST',
    body,
    headers: { Authorization: `Bearer ${token}` },
  });

describe('webResponse()', () => {
  it('is recognised, and needs its statuses, a schema only with a content type', () => {
    expect(isWebResponseSpec(answer)).toBe(true);
    expect(isWebResponseSpec({ kind: 'fileDownload' })).toBe(false);
    expect(() => webResponse({})).toThrow(/list the statuses/);
    expect(() => webResponse({ 2000: { description: 'x' } })).toThrow(/not an HTTP status/);
    expect(() => webResponse({ 200: { description: 'x', schema: RpcError } })).toThrow(
      /no content type/,
    );
  });

  it('passes the implementation’s Response on as it is, the body unread before it', async () => {
    const seen: { body?: string } = {};
    const response = await app(seen).request(post('{"a":1}'));
    expect(response.status).toBe(202);
    expect(response.headers.get('X-Own')).toBe('yes');
    expect(await response.text()).toBe('{"jsonrpc":"2.0"}');
    expect(seen.body).toBe('{"a":1}');
    // A route that takes a credential is never for a shared cache.
    expect(response.headers.get('Cache-Control')).toBe('no-store');
  });

  it('keeps the route’s steps: the body limit first, failures in the one error shape', async () => {
    const seen: { body?: string } = {};
    const tooLarge = await app(seen).request(post('x'.repeat(17)));
    expect(tooLarge.status).toBe(413);
    expect(seen.body).toBeUndefined();
    const failed = await app().request(post('fail'));
    expect(failed.status).toBe(400);
    expect((await failed.json<{ code: string }>()).code).toBe('validation_failed');
    expect((await app().request(post('{}', 'bad'))).status).toBe(401);
  });

  it('is described by each status it declares, with its content types, and never offered over RPC', () => {
    const operation = openApiDocument(service).paths['/modulesvc/rpc']!.post as {
      responses: Record<string, { description: string; content?: Record<string, unknown> }>;
    };
    expect(Object.keys(operation.responses)).toEqual(['200', '202', '400', 'default']);
    expect(operation.responses['200']).toEqual({
      description: 'JSON-RPC.',
      content: { 'application/json': {} },
    });
    // No body: no content.
    expect(operation.responses['202']).toEqual({ description: 'Accepted; no body.' });
    expect(operation.responses['400']).toEqual({
      description: 'Malformed.',
      content: {
        'application/json': {
          schema: expect.objectContaining({
            type: 'object',
            properties: expect.objectContaining({ jsonrpc: { type: 'string', enum: ['2.0'] } }),
          }),
        },
      },
    });
    expect(service.routes[0]!.rpc).toBe(false);
  });

  it('leaves the route’s steps’ refusals (401, 403) and the declared errors’ statuses to them', () => {
    const declare = (spec: object) =>
      defineService({ name: 'bad', prefix: '/bad', methods: { PostX: method(spec) } });
    const own = (status: number) =>
      webResponse({ [status]: { description: 'x', contentTypes: ['application/json'] } });
    expect(() => declare({ output: own(401) })).toThrow(/steps' refusals/);
    expect(() => declare({ output: own(403) })).toThrow(/steps' refusals/);
    expect(() => declare({ output: own(413), errors: ['body_too_large'] })).toThrow(
      /the route's own Response declares/,
    );
    expect(() => declare({ output: own(200), errors: ['body_too_large'] })).not.toThrow();
  });

  it('cannot stream, and takes no envelope', () => {
    const declare = (spec: object) =>
      defineService({ name: 'bad', prefix: '/bad', methods: { PostX: method(spec) } });
    expect(() => declare({ output: answer, envelope: false })).toThrow(ServiceDeclarationError);
    expect(() =>
      declare({ doc: '@handler(streamResponse)', stream: z.string(), output: answer }),
    ).toThrow(ServiceDeclarationError);
  });
});
