import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { z } from 'zod';
import { AppError } from '../errors/app-error';
import { createModuleApp } from '../module/module-app';
import { AuthError } from './auth-failure';
import { buildRequest, createClient } from './client';
import { defineService, method, routeOf } from './define';
import { enumOf } from './enum';
import {
  exampleApp,
  exampleService,
  type Calls,
  type StreamProbe,
} from './fixtures/example-service';
import { mountService } from './mount';
import type { StreamItem } from './types';

function setup(token: string | (() => string | undefined) = 'user-token') {
  const calls: Calls = [];
  const probe: StreamProbe = { closed: false, ticks: 0 };
  const app = exampleApp(calls, probe);
  const fetch = vi.fn((request: Request) => Promise.resolve(app.fetch(request)));
  const client = createClient(exampleService, { baseUrl: 'http://kb.test/', fetch, token });
  return { client, calls, probe, fetch };
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

describe('createClient against a mounted service', () => {
  it('sends query parameters and unwraps {"data": …}', async () => {
    const { client, calls } = setup();
    expect(await client.GetQuery({ text: 'tea', top: 2 })).toEqual([
      { text: 'about tea', similarity: 0.9 },
    ]);
    expect(calls[0]?.params).toEqual({ text: 'tea', top: 2 });
  });

  it('spreads a GET object over query parameters, lists repeated', async () => {
    const { client, calls } = setup();
    await client.ListFiles({ filter: { owner: 'bob', tags: ['a', 'b'], limit: 3 } });
    expect(calls[0]?.params).toEqual({ filter: { owner: 'bob', tags: ['a', 'b'], limit: 3 } });
  });

  it('sends a JSON body with scalars in the query', async () => {
    const { client, calls } = setup();
    expect(
      await client.CreateNote({ folder: 'in box', body: { text: 'hi', pinned: true } }),
    ).toEqual({
      folder: 'in box',
      text: 'hi',
    });
    expect(calls[0]?.params).toEqual({ folder: 'in box', body: { text: 'hi', pinned: true } });
  });

  it('sends form fields, and an object as fields under formRequest', async () => {
    const { client, calls } = setup();
    expect(await client.PutSettings({ theme: 'DARK', notify: false })).toEqual({
      theme: 'DARK',
      notify: false,
    });
    expect(
      await client.UpdateProfile({ profile: { name: 'Ann', age: 30, subscribed: true } }),
    ).toEqual({
      name: 'Ann',
      age: 30,
      subscribed: true,
    });
    expect(calls.map((call) => call.params)).toEqual([
      { theme: 'DARK', notify: false },
      { profile: { name: 'Ann', age: 30, subscribed: true } },
    ]);
  });

  it('uploads files as multipart with form fields and JSON parts', async () => {
    const { client } = setup();
    const file = new File(['hello'], 'hello.txt', { type: 'text/plain' });
    expect(await client.Upload({ file, note: 'n' })).toEqual({
      name: 'hello.txt',
      size: 5,
      note: 'n',
    });
    expect(
      await client.UploadMany({
        files: [new File(['a'], 'a.txt'), new File(['b'], 'b.txt')],
        meta: { tags: ['x'] },
        public: true,
      }),
    ).toEqual({ names: ['a.txt', 'b.txt'], tags: ['x'], public: true });
  });

  it('fills path parameters and downloads a file with its name', async () => {
    const { client, calls } = setup();
    const file = await client.GetFile({ id: 7 });
    expect(calls[0]?.params).toEqual({ id: 7 });
    expect(file.contentType).toBe('application/pdf');
    expect(file.filename).toBe('Übersicht Q1.pdf');
    expect(file.size).toBe(8);
    expect(new TextDecoder().decode(await new Response(file.body).arrayBuffer())).toBe('%PDF-1.7');
  });

  it('resolves 204 to undefined', async () => {
    const { client } = setup('admin-token');
    expect(await client.DeleteFile({ id: 1 })).toBeUndefined();
    expect(await client.GetMaybe({ found: false })).toBeUndefined();
    expect(await client.GetMaybe({ found: true })).toEqual({ value: 'here' });
  });

  it('throws problems as AppError with status, code and fields', async () => {
    const { client } = setup();
    const error = await client.GetQuery({ text: '' }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'The request is not valid.',
      errors: [{ field: 'text', message: expect.any(String) }],
    });
    await expect(client.Explode()).rejects.toMatchObject({ status: 500, code: 'internal_error' });
  });

  it('throws the plain-text refusals as AuthError', async () => {
    const anonymous = setup(() => undefined).client;
    const unauthorised = await anonymous.GetQuery({ text: 'a' }).catch((err: unknown) => err);
    expect(unauthorised).toBeInstanceOf(AuthError);
    expect(unauthorised).toMatchObject({
      status: 401,
      code: 'unauthenticated',
      message: 'Unauthorised',
    });
    const denied = await setup()
      .client.DeleteFile({ id: 1 })
      .catch((err: unknown) => err);
    expect(denied).toMatchObject({
      status: 403,
      code: 'permission_denied',
      message: 'Access denied',
    });
  });

  it('asks a token function before every call', async () => {
    const token = vi.fn(() => 'user-token');
    const { client } = setup(token);
    await client.GetQuery({ text: 'a' });
    await client.GetQuery({ text: 'b' });
    expect(token).toHaveBeenCalledTimes(2);
  });

  it('iterates a stream: messages and named events, typed', async () => {
    const { client, probe } = setup();
    const stream = await client.Chat({ body: { prompt: 'hi' } });
    expectTypeOf(stream).toEqualTypeOf<
      AsyncIterable<StreamItem<(typeof exampleService.methods)['Chat']>>
    >();
    expect(await collect(stream)).toEqual([
      { event: 'sources', data: ['a.pdf', 'b.pdf'] },
      { event: 'message', data: { content: 'echo: hi', type: 'content' } },
      { event: 'message', data: { content: 'line one\nline two', type: 'content' } },
      { event: 'done', data: { chunks: 2 } },
    ]);
    expect(probe.closed).toBe(true);
  });

  it('throws the error event of a failing stream after the messages before it', async () => {
    const { client } = setup();
    const seen: unknown[] = [];
    const failure = await (async () => {
      for await (const item of await client.Chat({ body: { prompt: 'fail' } }))
        seen.push(item.event);
    })().catch((err: unknown) => err);
    expect(seen).toEqual(['sources', 'message']);
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({
      status: 502,
      code: 'model_unavailable',
      message: 'The model is away.',
    });
  });

  it('cancels the stream when the loop ends early', async () => {
    const { client, probe } = setup();
    for await (const item of await client.Chat({ body: { prompt: 'forever' } })) {
      if (item.event === 'message') break;
    }
    await vi.waitFor(() => expect(probe.closed).toBe(true));
  });
});

describe('client method types', () => {
  it('makes the parameters argument optional only when every parameter is', () => {
    const { client } = setup();
    expectTypeOf(client.Explode).toBeCallableWith();
    expectTypeOf(client.ListFiles).toBeCallableWith({ filter: {} });
    expectTypeOf(client.GetQuery)
      .parameter(0)
      .toEqualTypeOf<{ text: string; top?: number | undefined }>();
    expectTypeOf(client.GetQuery).returns.resolves.toEqualTypeOf<
      { text: string; similarity: number }[]
    >();
    expectTypeOf(client.DeleteFile).returns.resolves.toEqualTypeOf<void>();
  });
});

describe('answers across versions', () => {
  const serverService = defineService({
    name: 'v',
    prefix: '/modulev',
    methods: {
      GetMe: method({ output: z.object({ role: z.string(), extra: z.string() }) }),
      GetBad: method({ output: z.object({ n: z.number() }) }),
    },
  });
  const clientService = defineService({
    name: 'v',
    prefix: '/modulev',
    methods: {
      GetMe: method({ output: z.object({ role: enumOf(['USER', 'SUPER_ADMIN']) }) }),
      GetBad: method({ output: z.object({ n: z.number() }) }),
    },
  });
  const app = mountService(
    createModuleApp({ prefix: '/modulev', defaultName: 'v', nameVariable: 'V' }),
    serverService,
    {
      GetMe: () => ({ role: 'ROBOT', extra: 'new field' }),
      GetBad: () => ({ n: 'not a number' }) as unknown as { n: number },
    },
  );
  const client = createClient(clientService, {
    baseUrl: 'http://v.test',
    fetch: async (r) => app.fetch(r),
  });

  it('decodes an enum value it does not know as UNKNOWN and drops unknown fields', async () => {
    expect(await client.GetMe()).toEqual({ role: 'UNKNOWN' });
  });

  it('refuses data that does not fit the declaration', async () => {
    await expect(client.GetBad()).rejects.toMatchObject({ status: 502, code: 'invalid_response' });
  });
});

describe('buildRequest', () => {
  it('encodes path parameters, sets Accept and Authorization, keeps the base path', async () => {
    const request = buildRequest(
      routeOf(exampleService, 'GetFile'),
      { id: 'a/b c' },
      { baseUrl: 'https://kb.example.com/api/' },
      {},
      'tok',
    );
    expect(request.method).toBe('GET');
    expect(request.url).toBe('https://kb.example.com/api/moduleknowledge/files/a%2Fb%20c');
    expect(request.headers.get('Authorization')).toBe('Bearer tok');
    expect(request.headers.get('Accept')).toBe('application/json');
  });

  it('asks for an event stream and sends JSON for a streaming method', async () => {
    const request = buildRequest(
      routeOf(exampleService, 'Chat'),
      { body: { prompt: 'p' } },
      { baseUrl: 'http://x' },
    );
    expect(request.headers.get('Accept')).toBe('text/event-stream');
    expect(request.headers.get('Content-Type')).toBe('application/json');
    expect(await request.text()).toBe('{"prompt":"p"}');
  });

  it('urlencodes a form without files', async () => {
    const request = buildRequest(
      routeOf(exampleService, 'PutSettings'),
      { theme: 'DARK', notify: true },
      { baseUrl: 'http://x' },
    );
    expect(request.headers.get('Content-Type')).toMatch(/^application\/x-www-form-urlencoded/);
    expect(await request.text()).toBe('theme=DARK&notify=true');
  });

  it('refuses a call without a path parameter', () => {
    expect(() =>
      buildRequest(routeOf(exampleService, 'GetFile'), {}, { baseUrl: 'http://x' }),
    ).toThrow(/Missing path parameter id/);
  });
});
