import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { defineService, method, routeOf, ServiceDeclarationError } from './define';
import { fileDownload } from './file-download';
import { exampleService } from './fixtures/example-service';
import { fileParam } from './schema-kind';
import type { InputOf, MethodSpec, ParamsFor, ResultOf } from './types';

function declare(methods: Record<string, MethodSpec>, extra: { routePattern?: 0 | 1 } = {}) {
  return defineService({ name: 'svc', prefix: '/modulesvc', methods, ...extra });
}

describe('routes of the example service', () => {
  const table = exampleService.routes.map((route) => ({
    name: route.name,
    route: `${route.httpMethod} ${route.fullPath}`,
    body: route.body,
    sources: Object.fromEntries(route.params.map((p) => [p.name, p.source])),
    response: route.response.kind,
    rpc: route.rpc,
  }));

  it.each([
    [
      'GetQuery',
      'GET /moduleknowledge/query',
      'none',
      { text: 'query', top: 'query' },
      'data',
      true,
    ],
    [
      'Upload',
      'POST /moduleknowledge/upload',
      'multipart',
      { file: 'file', note: 'form' },
      'data',
      false,
    ],
    [
      'UploadMany',
      'POST /moduleknowledge/upload_many',
      'multipart',
      { files: 'file', meta: 'json-part', public: 'form' },
      'data',
      false,
    ],
    ['PostLogin', 'POST /moduleknowledge/login', 'json', { body: 'json-body' }, 'data', false],
    ['Chat', 'POST /moduleknowledge/chat', 'json', { body: 'json-body' }, 'stream', false],
    ['GetFile', 'GET /moduleknowledge/files/:id', 'none', { id: 'path' }, 'file', false],
    ['DeleteFile', 'DELETE /moduleknowledge/files/:id', 'none', { id: 'path' }, 'empty', true],
    ['ListFiles', 'GET /moduleknowledge/files', 'none', { filter: 'query-fields' }, 'data', true],
    [
      'UpdateProfile',
      'PUT /moduleknowledge/profile',
      'form',
      { profile: 'form-fields' },
      'data',
      false,
    ],
    [
      'PutSettings',
      'PUT /moduleknowledge/settings',
      'form',
      { theme: 'form', notify: 'form', email: 'form' },
      'data',
      false,
    ],
    [
      'CreateNote',
      'POST /moduleknowledge/note',
      'json',
      { folder: 'query', body: 'json-body' },
      'data',
      false,
    ],
    ['GetMaybe', 'GET /moduleknowledge/maybe', 'none', { found: 'query' }, 'data', false],
    ['Explode', 'POST /moduleknowledge/explode', 'none', {}, 'data', false],
  ])('%s → %s', (name, route, body, sources, response, rpc) => {
    expect(table.find((row) => row.name === name)).toEqual({
      name,
      route,
      body,
      sources,
      response,
      rpc,
    });
  });

  it('keeps declaration order and knows its roles and middlewares', () => {
    expect(exampleService.routes.map((r) => r.name)[0]).toBe('GetQuery');
    expect(routeOf(exampleService, 'GetQuery').roles).toEqual(['USER', 'SUPER_ADMIN']);
    expect(routeOf(exampleService, 'GetMaybe').roles).toBeUndefined();
    expect(routeOf(exampleService, 'DeleteFile').middlewares).toEqual(['audit']);
    expect(() => routeOf(exampleService, 'Nope')).toThrow(/no method Nope/);
  });
});

describe('annotation stores', () => {
  it('stores every route in the REST store and only RPC methods in the RPC store', () => {
    const rest = exampleService.routeAnnotations;
    const rpc = exampleService.methodAnnotations;
    expect(rest.getParams('GetQuery', 'role')).toEqual(['USER', 'SUPER_ADMIN']);
    expect(rest.getParams('ListFiles', 'Cache')).toEqual(['60', 'private']);
    expect(rest.hasAnnotation('Chat', 'handler')).toBe(true);
    expect(rest.hasAnnotation('GetMaybe', 'role')).toBe(false);
    expect(rpc.routes()).toEqual(['GetQuery', 'DeleteFile', 'ListFiles']);
    expect(rest.getParams('OpenApiDocument', 'role')).toEqual(['guest']);
    expect(rest.getParams('OpenApiDocs', 'role')).toEqual(['guest']);
    expect(rpc.hasAnnotation('GetQuery', 'grpc')).toBe(true);
    expect(rpc.hasAnnotation('Chat', 'handler')).toBe(false);
  });
});

describe('route paths', () => {
  it('follow the routePattern of the service', () => {
    const methods = { GetUserByID: method({}), ListHTTPLogs: method({}) };
    expect(declare(methods).routes.map((r) => r.path)).toEqual(['/user_by_id', '/http_logs']);
    expect(declare(methods, { routePattern: 1 }).routes.map((r) => r.path)).toEqual([
      '/userbyid',
      '/httplogs',
    ]);
  });

  it('let @path override the generated path, a verb-only name map to the root', () => {
    const service = declare({
      Get: method({}),
      GetOne: method({
        doc: '@path(/things/:thingId/parts/:part)',
        params: { thingId: z.number(), part: z.string() },
      }),
    });
    expect(service.routes.map((r) => [r.path, r.fullPath])).toEqual([
      ['/', '/modulesvc'],
      ['/things/:thingId/parts/:part', '/modulesvc/things/:thingId/parts/:part'],
    ]);
    expect(service.routes[1]?.params.map((p) => p.source)).toEqual(['path', 'path']);
  });

  it('accept a repeated @path that agrees', () => {
    expect(declare({ GetA: method({ doc: '@path(/a) again @path(/a)' }) }).routes[0]?.path).toBe(
      '/a',
    );
  });
});

describe('@credential', () => {
  it('names the one kind of credential a route takes; without it, any', () => {
    const service = declare({
      PostUser: method({ doc: 'Creates a user. @role(ADMIN) @credential(login)' }),
      PostCompletion: method({ doc: '@credential(key) and again @credential(key)' }),
      GetMe: method({}),
    });
    expect(service.routes.map((r) => [r.name, r.credential])).toEqual([
      ['PostUser', 'login'],
      ['PostCompletion', 'key'],
      ['GetMe', undefined],
    ]);
  });
});

describe('declaration errors', () => {
  it.each<[string, Record<string, MethodSpec>, RegExp]>([
    ['a malformed annotation', { GetA: { doc: '@role(USER' } }, /svc\.GetA: @role\( is not closed/],
    ['an empty annotation name', { GetA: { doc: 'x @(a)' } }, /needs a name/],
    ['an annotation without parentheses', { GetA: { doc: '@role USER' } }, /needs parentheses/],
    [
      'an unknown handler',
      { PostA: { doc: '@handler(jsonStream)' } },
      /@handler takes one of formRequest, streamResponse/,
    ],
    [
      'a handler with two values',
      { PostA: { doc: '@handler(formRequest, streamResponse)' } },
      /@handler takes one of/,
    ],
    [
      '@path without a leading slash',
      { GetA: { doc: '@path(files/:id)', params: { id: z.string() } } },
      /must start with "\/"/,
    ],
    [
      '@path with a trailing slash',
      { GetA: { doc: '@path(/files/)' } },
      /literal segments and :name segments/,
    ],
    ['@path with a query', { GetA: { doc: '@path(/files?x=1)' } }, /literal segments/],
    [
      'conflicting @path',
      { GetA: { doc: '@path(/a) @path(/b)' } },
      /conflicting @path annotations: \/a and \/b/,
    ],
    ['@path with two values', { GetA: { doc: '@path(/a, /b)' } }, /exactly one path/],
    [
      'a path segment naming no parameter',
      { GetA: { doc: '@path(/a/:id)' } },
      /:id names no parameter/,
    ],
    [
      'a list as path parameter',
      { GetA: { doc: '@path(/a/:id)', params: { id: z.array(z.string()) } } },
      /single scalar/,
    ],
    ['@role()', { GetA: { doc: '@role()' } }, /at least one role/],
    ['@middleware()', { GetA: { doc: '@middleware()' } }, /needs a middleware name/],
    ['@grpc with parameters', { GetA: { doc: '@grpc(x)' } }, /takes no parameters/],
    ['@credential()', { PostA: { doc: '@credential()' } }, /@credential takes one of login, key/],
    [
      'an unknown credential',
      { PostA: { doc: '@credential(password)' } },
      /@credential takes one of login, key; got @credential\(password\)/,
    ],
    [
      'two credentials in one annotation',
      { PostA: { doc: '@credential(login, key)' } },
      /@credential takes one of login, key/,
    ],
    [
      'conflicting @credential',
      { PostA: { doc: '@credential(login) @credential(key)' } },
      /conflicting @credential annotations: login and key/,
    ],
    [
      '@credential on a guest route',
      { PostA: { doc: '@role(guest) @credential(login)' } },
      /@credential does not apply to a @role\(guest\) route/,
    ],
    [
      'stream without the annotation',
      { PostA: { stream: z.string() } },
      /needs @handler\(streamResponse\)/,
    ],
    [
      'the annotation without stream',
      { PostA: { doc: '@handler(streamResponse)' } },
      /needs a `stream` message schema/,
    ],
    [
      'a stream answering a file instead',
      {
        PostA: {
          doc: '@handler(streamResponse)',
          stream: z.string(),
          output: fileDownload({ contentTypes: ['text/plain'] }),
        },
      },
      /cannot answer a file/,
    ],
    ['streamEnd without stream', { PostA: { streamEnd: '[DONE]' } }, /only applies to streams/],
    [
      'a streamEnd of two lines',
      { PostA: { doc: '@handler(streamResponse)', stream: z.string(), streamEnd: 'a\nb' } },
      /one non-empty line/,
    ],
    [
      'envelope: false on a stream without output',
      { PostA: { doc: '@handler(streamResponse)', stream: z.string(), envelope: false } },
      /needs an `output`/,
    ],
    [
      'a "message" event',
      {
        PostA: {
          doc: '@handler(streamResponse)',
          stream: z.string(),
          events: { message: z.string() },
        },
      },
      /"message" is the unnamed event/,
    ],
    ['events without stream', { PostA: { events: { x: z.string() } } }, /only apply to streaming/],
    [
      '@grpc on a stream',
      { PostA: { doc: '@grpc @handler(streamResponse)', stream: z.string() } },
      /@grpc methods cannot stream/,
    ],
    [
      '@grpc on a download',
      { GetA: { doc: '@grpc', output: fileDownload() } },
      /@grpc methods cannot/,
    ],
    [
      '@grpc on an upload',
      { PostA: { doc: '@grpc', params: { f: fileParam() } } },
      /@grpc methods cannot/,
    ],
    [
      'two JSON bodies',
      { PostA: { params: { a: z.object({}), b: z.object({}) } } },
      /only one parameter can be the JSON body, found a, b/,
    ],
    [
      'a file on GET',
      { GetA: { params: { f: fileParam() } } },
      /"f" cannot travel in a GET query string/,
    ],
    [
      'a nested object on GET',
      { GetA: { params: { q: z.object({ inner: z.object({}) }) } } },
      /field "q.inner" cannot travel/,
    ],
    [
      'a record on DELETE',
      { DeleteA: { params: { q: z.record(z.string(), z.string()) } } },
      /cannot travel in a DELETE query string/,
    ],
    [
      'formRequest on GET',
      { GetA: { doc: '@handler(formRequest)', params: { a: z.string() } } },
      /needs a request body; GET has none/,
    ],
    [
      'formRequest with a record',
      { PostA: { doc: '@handler(formRequest)', params: { a: z.record(z.string(), z.string()) } } },
      /cannot travel as form fields/,
    ],
    [
      'a field sent twice',
      { GetA: { params: { q: z.object({ name: z.string() }), name: z.string() } } },
      /"name" is sent twice in the query/,
    ],
    [
      '@validate on no parameter',
      { GetA: { doc: '@validate(top, gt=0)' } },
      /@validate\(top\) names no parameter/,
    ],
    [
      '@validate on no field',
      { PostA: { doc: '@validate(body.x, min=1)', params: { body: z.object({ y: z.string() }) } } },
      /"x" is not a field/,
    ],
    [
      '@validate with an unknown tag',
      { GetA: { doc: '@validate(a, between=1)', params: { a: z.string() } } },
      /unknown tag "between"/,
    ],
    [
      '@validate unfit for the type',
      { GetA: { doc: '@validate(a, email)', params: { a: z.number() } } },
      /"email" does not apply to a number/,
    ],
    ['a lowercase method name', { getA: {} }, /method names start with a capital/],
    ['an underscore in a method name', { Get_A: {} }, /method names start with a capital/],
    [
      'two methods on one route',
      { GetA: {}, ListA: { doc: '@path(/a)' } },
      /GetA and ListA both answer GET \/a/,
    ],
    [
      'the name of a description route',
      { OpenApiDocs: {} },
      /OpenApiDocs is the name of a description route/,
    ],
    [
      'path parameters under other names',
      {
        GetA: { doc: '@path(/x/:a)', params: { a: z.string() } },
        GetB: { doc: '@path(/x/:b)', params: { b: z.string() } },
      },
      /both answer GET \/x\/:b/,
    ],
  ])('rejects %s', (_, methods, message) => {
    expect(() => declare(methods)).toThrow(ServiceDeclarationError);
    expect(() => declare(methods)).toThrow(message);
  });

  it.each([
    [{ name: 'svc', prefix: 'modulesvc' }, /must be an absolute path/],
    [{ name: 'svc', prefix: '/modulesvc/' }, /must be an absolute path/],
    [{ name: 'my svc', prefix: '/m' }, /not a service name/],
    [{ name: 'svc', prefix: '/m', doc: '@role(' }, /not closed/],
  ])('rejects the service settings %j', (settings, message) => {
    expect(() => defineService({ ...settings, methods: {} })).toThrow(message);
  });

  it('rejects a routePattern other than 0 and 1', () => {
    expect(() =>
      defineService({ name: 'svc', prefix: '/m', routePattern: 2 as 0, methods: {} }),
    ).toThrow(/0 or 1/);
  });
});

describe('types derived from a declaration', () => {
  it('types inputs, parameters and results', () => {
    type Query = (typeof exampleService.methods)['GetQuery'];
    expectTypeOf<InputOf<Query>>().toEqualTypeOf<{ text: string; top?: number | undefined }>();
    expectTypeOf<ParamsFor<Query>>().toEqualTypeOf<{ text: string; top?: number | undefined }>();
    expectTypeOf<ResultOf<Query>>().toEqualTypeOf<{ text: string; similarity: number }[]>();
    type Delete = (typeof exampleService.methods)['DeleteFile'];
    expectTypeOf<ResultOf<Delete>>().toEqualTypeOf<void>();
  });
});
