import { createExecutionContext, env } from 'cloudflare:test';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { AppError } from '../errors/app-error';
import { AuthError } from './auth-failure';
import { addEmbeddingTokens } from './call-usage';
import { defineService, method } from './define';
import {
  exampleApp,
  exampleAuthorize,
  exampleImpl,
  exampleService,
  type Calls,
  type ExampleService,
} from './fixtures/example-service';
import {
  rpcClient,
  rpcEntrypoint,
  rpcFailureError,
  unwrapRpc,
  type RpcBindingOf,
  type RpcResult,
} from './rpc';
import type { AccessRequest } from './types';

const USER = { identity: { token: 'user-token' } };
const ADMIN = { identity: { token: 'admin-token' } };

function setup(authorize: (access: AccessRequest) => unknown = exampleAuthorize) {
  const calls: Calls = [];
  const Entrypoint = rpcEntrypoint(exampleService, exampleImpl(calls), {
    authorize: authorize as typeof exampleAuthorize,
    fetch: (request, bindings, ctx) => exampleApp().fetch(request, bindings as object, ctx),
  });
  const entrypoint = new Entrypoint(createExecutionContext(), env);
  return { entrypoint, calls };
}

describe('rpcEntrypoint', () => {
  it('exposes one method per @grpc method (annotatedOnly), nothing else', () => {
    const { entrypoint } = setup();
    const methods = exampleService.routes
      .map((route) => route.name)
      .filter(
        (name) => typeof (entrypoint as unknown as Record<string, unknown>)[name] === 'function',
      );
    expect(methods).toEqual(['GetQuery', 'DeleteFile', 'ListFiles']);
    expectTypeOf<keyof RpcBindingOf<ExampleService>>().toEqualTypeOf<
      'GetQuery' | 'DeleteFile' | 'ListFiles'
    >();
  });

  it('exposes every non-streaming, non-file method without annotatedOnly', () => {
    const service = defineService({
      name: 'svc',
      prefix: '/modulesvc',
      methods: { GetA: method({}), PostB: method({}) },
    });
    const Entrypoint = rpcEntrypoint(service, { GetA: () => undefined, PostB: () => undefined });
    const entrypoint = new Entrypoint(createExecutionContext(), env) as unknown as Record<
      string,
      unknown
    >;
    expect([typeof entrypoint.GetA, typeof entrypoint.PostB]).toEqual(['function', 'function']);
  });

  it('validates the parameters and calls the implementation with the principal', async () => {
    const { entrypoint, calls } = setup();
    const result = await entrypoint.GetQuery({ text: 'tea', top: 3 }, USER);
    expect(result).toEqual({ ok: true, data: [{ text: 'about tea', similarity: 0.9 }] });
    expect(calls).toEqual([
      {
        method: 'GetQuery',
        params: { text: 'tea', top: 3 },
        principal: { name: 'ann', role: 'USER' },
      },
    ]);
  });

  it('resolves a method without data to ok with undefined', async () => {
    const { entrypoint } = setup();
    expect(await entrypoint.DeleteFile({ id: 4 }, ADMIN)).toEqual({ ok: true, data: undefined });
  });

  it.each([
    [{}, { status: 401, code: 'unauthenticated', message: 'Unauthorised' }],
    [
      { identity: { token: 'forged' } },
      { status: 401, code: 'unauthenticated', message: 'Unauthorised' },
    ],
    [USER, { status: 403, code: 'permission_denied', message: 'Access denied' }],
  ])('refuses %j through the same authorize hook', async (meta, error) => {
    const { entrypoint, calls } = setup();
    expect(await entrypoint.DeleteFile({ id: 4 }, meta)).toEqual({ ok: false, error });
    expect(calls).toEqual([]);
  });

  it('passes the caller identity, roles and full method name to the hook', async () => {
    const seen: unknown[] = [];
    const { entrypoint } = setup((access) => {
      seen.push({ route: access.route, roles: access.roles, caller: access.caller });
      return exampleAuthorize(access);
    });
    await entrypoint.GetQuery({ text: 'a' }, USER);
    expect(seen).toEqual([
      {
        route: 'GetQuery',
        roles: ['USER', 'SUPER_ADMIN'],
        caller: {
          transport: 'rpc',
          identity: { token: 'user-token' },
          fullMethod: '/knowledge/GetQuery',
        },
      },
    ]);
  });

  it('passes the kind of credential a method takes (@credential) to the hook, as on HTTP', async () => {
    const service = defineService({
      name: 'svc',
      prefix: '/modulesvc',
      methods: { PostUser: method({ doc: '@credential(login)' }), GetMe: method({}) },
    });
    const seen: Array<[string, string | undefined]> = [];
    const Entrypoint = rpcEntrypoint(
      service,
      { PostUser: () => undefined, GetMe: () => undefined },
      {
        authorize: (access) => {
          seen.push([access.route, access.credential]);
          return undefined;
        },
      },
    );
    const entrypoint = new Entrypoint(createExecutionContext(), env) as unknown as Record<
      string,
      (params: unknown, meta: unknown) => Promise<unknown>
    >;
    await entrypoint.PostUser!({}, USER);
    await entrypoint.GetMe!({}, USER);
    expect(seen).toEqual([
      ['PostUser', 'login'],
      ['GetMe', undefined],
    ]);
  });

  it('reports validation failures with parameter-qualified field names, without coercing text', async () => {
    const { entrypoint } = setup();
    const result = await entrypoint.GetQuery({ text: '', top: '5' as unknown as number }, USER);
    expect(result).toEqual({
      ok: false,
      error: {
        status: 400,
        code: 'validation_failed',
        message: 'The request is not valid.',
        errors: [
          { field: 'text', message: expect.stringMatching(/>=1 characters/) },
          { field: 'top', message: expect.stringMatching(/expected number/) },
        ],
      },
    });
    const nested = await entrypoint.ListFiles({ filter: { limit: 'x' as unknown as number } });
    expect(nested.ok === false && nested.error.errors).toEqual([
      { field: 'filter.limit', message: expect.any(String) },
    ]);
    const missing = await entrypoint.ListFiles(undefined as never);
    expect(missing.ok === false && missing.error.errors).toEqual([
      { field: 'filter', message: 'is required' },
    ]);
  });

  it('applies @validate as on HTTP', async () => {
    const { entrypoint } = setup();
    const result = await entrypoint.GetQuery({ text: 'a', top: 0 }, USER);
    expect(result.ok === false && result.error.errors).toEqual([
      { field: 'top', message: 'must be more than 0' },
    ]);
  });

  it('keeps internals of unexpected errors on the callee', async () => {
    const { entrypoint } = setup();
    const result = await entrypoint.ListFiles({ filter: { owner: 'crash' } });
    expect(result).toEqual({
      ok: false,
      error: { status: 500, code: 'internal_error', message: 'Internal server error.' },
    });
  });

  it('gives the implementation an RPC call context with the caller request id', async () => {
    const { entrypoint } = setup();
    const result = await entrypoint.ListFiles(
      { filter: { owner: 'ctx' } },
      { requestId: 'req-42' },
    );
    expect(result.ok && result.data[0]?.name).toBe('req-42|ListFiles|rpc');
    const fresh = await entrypoint.ListFiles(
      { filter: { owner: 'ctx' } },
      { requestId: 'bad id\n' },
    );
    expect(fresh.ok && fresh.data[0]?.name).toMatch(/^[0-9a-f-]{36}\|ListFiles\|rpc$/);
  });

  it('serves HTTP through the fetch option', async () => {
    const { entrypoint } = setup();
    const response = await entrypoint.fetch!(new Request('http://x/moduleknowledge/maybe?found=1'));
    expect(await response.json()).toEqual({ data: { value: 'here' } });
  });

  it('refuses @role methods without an authorize hook, at construction', () => {
    expect(() => rpcEntrypoint(exampleService, exampleImpl([]))).toThrow(/GetQuery declares @role/);
  });
});

describe('rpcClient', () => {
  it('resolves to the data and throws AppError with the same status and code', async () => {
    const { entrypoint } = setup();
    const binding = entrypoint as unknown as RpcBindingOf<ExampleService>;
    const knowledge = rpcClient(exampleService, binding, USER);
    expect(await knowledge.GetQuery({ text: 'x' })).toEqual([{ text: 'about x', similarity: 0.9 }]);
    const failure = await knowledge.GetQuery({ text: '' }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({
      status: 400,
      code: 'validation_failed',
      errors: [{ field: 'text' }],
    });
    const denied = await knowledge.DeleteFile({ id: 1 }).catch((err: unknown) => err);
    expect(denied).toBeInstanceOf(AuthError);
    expect(denied).toMatchObject({
      status: 403,
      code: 'permission_denied',
      message: 'Access denied',
    });
  });

  it('asks a metadata function before every call', async () => {
    const { entrypoint } = setup();
    let token = 'user-token';
    const knowledge = rpcClient(exampleService, entrypoint, () => ({ identity: { token } }));
    await expect(knowledge.DeleteFile({ id: 1 })).rejects.toMatchObject({ status: 403 });
    token = 'admin-token';
    await expect(knowledge.DeleteFile({ id: 1 })).resolves.toBeUndefined();
  });

  it('tells the caller the model tokens a call spent for it (usage accounting), and none when none', async () => {
    const service = defineService({
      name: 'svc',
      prefix: '/modulesvc',
      methods: { GetSpent: method({}), GetFree: method({}) },
    });
    const Entrypoint = rpcEntrypoint(service, {
      GetSpent: (_, ctx) => {
        addEmbeddingTokens(ctx, 7);
        addEmbeddingTokens(ctx, 5);
      },
      GetFree: () => undefined,
    });
    const told: unknown[] = [];
    const client = rpcClient(
      service,
      new Entrypoint(createExecutionContext(), env) as unknown as RpcBindingOf<typeof service>,
      {},
      (usage) => told.push(usage),
    );
    await expect(client.GetSpent()).resolves.toBeUndefined();
    await expect(client.GetFree()).resolves.toBeUndefined();
    expect(told).toEqual([{ embedding_tokens: 12 }]);
  });
});

describe('unwrapRpc and rpcFailureError', () => {
  it.each([
    [{ status: 401, code: 'unauthenticated', message: 'Unauthorised' }, AuthError, 401],
    [{ status: 403, code: 'permission_denied', message: 'Access denied' }, AuthError, 403],
    [{ status: 404, code: 'not_found', message: 'No such file.' }, AppError, 404],
  ])('rebuilds %j', (failure, type, status) => {
    const error = rpcFailureError(failure);
    expect(error).toBeInstanceOf(type);
    expect(error).toMatchObject({ status, code: failure.code, message: failure.message });
  });

  it('rejects an answer that is not an RpcResult', () => {
    expect(unwrapRpc({ ok: true, data: 1 })).toBe(1);
    expect(() => unwrapRpc('nonsense' as unknown as RpcResult<number>)).toThrow(/unexpected form/);
  });
});
