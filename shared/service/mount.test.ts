import { Hono } from 'hono';
import { describe, expect, it, vi } from 'vitest';
import { createModuleApp } from '../module/module-app';
import { API_REFERENCE_ASSETS, API_REFERENCE_CSP } from './api-reference-page';
import { defineService, method } from './define';
import {
  exampleApp,
  exampleAuthorize,
  exampleImpl,
  exampleService,
  type Calls,
  type StreamProbe,
} from './fixtures/example-service';
import { unauthorised } from './auth-failure';
import { mountService, routeNameOf } from './mount';
import { sseEvent } from './sse';
import type { AccessRequest } from './types';

const USER = { Authorization: 'Bearer user-token' };
const ADMIN = { Authorization: 'Bearer admin-token' };
const JSON_TYPE = { 'Content-Type': 'application/json' };
const FORM_TYPE = { 'Content-Type': 'application/x-www-form-urlencoded' };

function setup(options: Parameters<typeof exampleApp>[3] = {}) {
  const calls: Calls = [];
  const audit: string[] = [];
  const probe: StreamProbe = { closed: false, ticks: 0 };
  const app = exampleApp(calls, probe, audit, options);
  return { app, calls, audit, probe };
}

async function problemOf(response: Response) {
  expect(response.headers.get('Content-Type')).toBe('application/problem+json');
  return (await response.json()) as {
    status: number;
    code: string;
    detail: string;
    request_id?: string;
    errors?: Array<{ field: string; message: string }>;
  };
}

function form(entries: Record<string, string | File | Array<string | File>>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(entries)) {
    for (const item of Array.isArray(value) ? value : [value]) data.append(key, item);
  }
  return data;
}

describe('parameters by verb and kind', () => {
  it('reads GET scalars from the query string, coerced per schema', async () => {
    const { app, calls } = setup();
    const response = await app.request('/moduleknowledge/query?text=hello&top=5', {
      headers: USER,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: [{ text: 'about hello', similarity: 0.9 }] });
    expect(calls).toEqual([
      {
        method: 'GetQuery',
        params: { text: 'hello', top: 5 },
        principal: { name: 'ann', role: 'USER' },
      },
    ]);
  });

  it('lets an optional parameter be absent', async () => {
    const { app, calls } = setup();
    expect((await app.request('/moduleknowledge/query?text=x', { headers: USER })).status).toBe(
      200,
    );
    expect(calls[0]?.params).toEqual({ text: 'x' });
  });

  it('reads a GET object parameter field by field from the query', async () => {
    const { app, calls } = setup();
    const response = await app.request('/moduleknowledge/files?owner=bob&limit=2&tags=a&tags=b');
    expect(await response.json()).toEqual({ data: [{ id: 1, name: 'a.pdf', owner: 'bob' }] });
    expect(calls[0]?.params).toEqual({ filter: { owner: 'bob', limit: 2, tags: ['a', 'b'] } });
  });

  it('accepts a GET object whose fields are all optional and absent', async () => {
    const { app, calls } = setup();
    expect((await app.request('/moduleknowledge/files')).status).toBe(200);
    expect(calls[0]?.params).toEqual({ filter: {} });
  });

  it('reads a path parameter, coerced to a number', async () => {
    const { app, calls } = setup();
    const response = await app.request('/moduleknowledge/files/7', { headers: USER });
    expect(response.status).toBe(200);
    expect(calls[0]?.params).toEqual({ id: 7 });
  });

  it('reads DELETE path parameters and answers 204 without data', async () => {
    const { app, calls } = setup();
    const response = await app.request('/moduleknowledge/files/3', {
      method: 'DELETE',
      headers: ADMIN,
    });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect(calls[0]?.params).toEqual({ id: 3 });
  });

  it('reads POST/PUT scalars from urlencoded form fields', async () => {
    const { app, calls } = setup();
    const response = await app.request('/moduleknowledge/settings', {
      method: 'PUT',
      headers: { ...USER, ...FORM_TYPE },
      body: 'theme=DARK&notify=false',
    });
    expect(await response.json()).toEqual({ data: { theme: 'DARK', notify: false } });
    expect(calls[0]?.params).toEqual({ theme: 'DARK', notify: false });
  });

  it('reads POST/PUT scalars from multipart form fields as well', async () => {
    const { app, calls } = setup();
    const body = form({ theme: 'LIGHT', notify: 'true', email: 'a@example.com' });
    const response = await app.request('/moduleknowledge/settings', {
      method: 'PUT',
      headers: USER,
      body,
    });
    expect(response.status).toBe(200);
    expect(calls[0]?.params).toEqual({ theme: 'LIGHT', notify: true, email: 'a@example.com' });
  });

  it('maps an unknown enum name to UNKNOWN instead of failing', async () => {
    const { app } = setup();
    const response = await app.request('/moduleknowledge/settings', {
      method: 'PUT',
      headers: { ...USER, ...FORM_TYPE },
      body: 'theme=PURPLE&notify=1',
    });
    expect(await response.json()).toEqual({ data: { theme: 'UNKNOWN', notify: true } });
  });

  it('reads an object parameter as the JSON body, and scalars beside it from the query', async () => {
    const { app, calls } = setup();
    const response = await app.request('/moduleknowledge/note?folder=inbox', {
      method: 'POST',
      headers: { ...USER, ...JSON_TYPE },
      body: JSON.stringify({ text: 'hi', pinned: true }),
    });
    expect(await response.json()).toEqual({ data: { folder: 'inbox', text: 'hi' } });
    expect(calls[0]?.params).toEqual({ folder: 'inbox', body: { text: 'hi', pinned: true } });
  });

  it('reads an object from form fields under @handler(formRequest)', async () => {
    const { app, calls } = setup();
    const response = await app.request('/moduleknowledge/profile', {
      method: 'PUT',
      headers: { ...USER, ...FORM_TYPE },
      body: 'name=Ann&age=30&subscribed=on',
    });
    expect(await response.json()).toEqual({ data: { name: 'Ann', age: 30, subscribed: true } });
    expect(calls[0]?.params).toEqual({ profile: { name: 'Ann', age: 30, subscribed: true } });
  });

  it('reads a file part named after the parameter, with form fields beside it', async () => {
    const { app, calls } = setup();
    const file = new File(['%PDF-1.7 hello'], 'report.pdf', { type: 'application/pdf' });
    const response = await app.request('/moduleknowledge/upload', {
      method: 'POST',
      headers: USER,
      body: form({ file, note: 'first' }),
    });
    expect(await response.json()).toEqual({
      data: { name: 'report.pdf', size: 14, note: 'first' },
    });
    expect(calls[0]?.params).toMatchObject({ note: 'first' });
    expect((calls[0]?.params as { file: File }).file).toBeInstanceOf(File);
  });

  it('reads several files, a JSON part and a form field from one multipart body', async () => {
    const { app } = setup();
    const body = form({
      files: [new File(['a'], 'a.txt'), new File(['b'], 'b.txt')],
      meta: JSON.stringify({ tags: ['x', 'y'] }),
      public: 'true',
    });
    const response = await app.request('/moduleknowledge/upload_many', {
      method: 'POST',
      headers: USER,
      body,
    });
    expect(await response.json()).toEqual({
      data: { names: ['a.txt', 'b.txt'], tags: ['x', 'y'], public: true },
    });
  });
});

describe('validation and malformed requests', () => {
  it('reports every failing field: 400 in the one error shape', async () => {
    const { app, calls } = setup();
    const response = await app.request('/moduleknowledge/query?top=abc', { headers: USER });
    expect(response.status).toBe(400);
    const problem = await problemOf(response);
    expect(problem).toMatchObject({
      status: 400,
      code: 'validation_failed',
      detail: 'The request is not valid.',
    });
    expect(problem.request_id).toEqual(expect.any(String));
    expect(problem.errors).toEqual([
      { field: 'text', message: 'is required' },
      { field: 'top', message: expect.stringMatching(/expected number/) },
    ]);
    expect(calls).toEqual([]);
  });

  it.each([
    ['top=0', 'must be more than 0'],
    ['top=51', 'must be at most 50'],
    ['top=1.5', expect.stringMatching(/int/i)],
  ])('applies @validate and the schema to %s', async (query, message) => {
    const { app } = setup();
    const response = await app.request(`/moduleknowledge/query?text=a&${query}`, { headers: USER });
    expect((await problemOf(response)).errors).toEqual([{ field: 'top', message }]);
  });

  it('names JSON body fields as the client wrote them, with @validate on a field', async () => {
    const { app } = setup();
    const response = await app.request('/moduleknowledge/login', {
      method: 'POST',
      headers: JSON_TYPE,
      body: JSON.stringify({ username: 'ab', password: 'short' }),
    });
    const problem = await problemOf(response);
    expect(problem.errors).toEqual([
      { field: 'password', message: expect.stringMatching(/>=8 characters/) },
    ]);
    const second = await app.request('/moduleknowledge/login', {
      method: 'POST',
      headers: JSON_TYPE,
      body: JSON.stringify({ username: 'ab', password: 'long enough' }),
    });
    expect((await problemOf(second)).errors).toEqual([
      { field: 'username', message: 'must be at least 3 characters long' },
    ]);
  });

  it('requires a missing JSON body by the parameter name', async () => {
    const { app } = setup();
    const response = await app.request('/moduleknowledge/login', { method: 'POST' });
    expect((await problemOf(response)).errors).toEqual([{ field: 'body', message: 'is required' }]);
  });

  it.each([
    ['/moduleknowledge/login', '{"username": "ann",', JSON_TYPE],
    ['/moduleknowledge/login', '', JSON_TYPE],
  ])('answers malformed or empty JSON with 400', async (path, body, headers) => {
    const { app } = setup();
    const response = await app.request(path, { method: 'POST', headers, body });
    expect(response.status).toBe(400);
    const problem = await problemOf(response);
    expect(problem.code).toBe(body === '' ? 'validation_failed' : 'malformed_json');
  });

  it('answers a malformed JSON multipart field with 400 malformed_json', async () => {
    const { app } = setup();
    const body = form({ files: new File(['a'], 'a.txt'), meta: '{nope' });
    const response = await app.request('/moduleknowledge/upload_many', {
      method: 'POST',
      headers: USER,
      body,
    });
    expect((await problemOf(response)).code).toBe('malformed_json');
  });

  it.each([
    ['POST', '/moduleknowledge/login', { 'Content-Type': 'text/plain' }, 'x'],
    ['POST', '/moduleknowledge/login', FORM_TYPE, 'username=a'],
    ['PUT', '/moduleknowledge/profile', JSON_TYPE, '{"name":"a"}'],
    ['POST', '/moduleknowledge/upload', FORM_TYPE, 'file=a'],
  ])('answers %s %s with the wrong media type 415', async (method, path, type, body) => {
    const { app } = setup();
    const response = await app.request(path, { method, headers: { ...USER, ...type }, body });
    expect(response.status).toBe(415);
    expect((await problemOf(response)).code).toBe('unsupported_media_type');
  });

  it('reports a missing file and a bad path parameter by name', async () => {
    const { app } = setup();
    const upload = await app.request('/moduleknowledge/upload', {
      method: 'POST',
      headers: USER,
      body: form({ note: 'no file' }),
    });
    expect((await problemOf(upload)).errors).toEqual([
      { field: 'file', message: expect.any(String) },
    ]);
    const path = await app.request('/moduleknowledge/files/abc', { headers: USER });
    expect((await problemOf(path)).errors).toEqual([
      { field: 'id', message: expect.stringMatching(/expected number/) },
    ]);
  });

  it('reports form fields of an object parameter by field name', async () => {
    const { app } = setup();
    const response = await app.request('/moduleknowledge/profile', {
      method: 'PUT',
      headers: { ...USER, ...FORM_TYPE },
      body: 'age=old',
    });
    expect((await problemOf(response)).errors).toEqual([
      { field: 'name', message: 'is required' },
      { field: 'age', message: expect.stringMatching(/expected number/) },
    ]);
  });

  it('applies omitempty: an empty e-mail passes, a bad one fails', async () => {
    const { app } = setup();
    const send = (body: string) =>
      app.request('/moduleknowledge/settings', {
        method: 'PUT',
        headers: { ...USER, ...FORM_TYPE },
        body,
      });
    expect((await send('theme=DARK&notify=1&email=')).status).toBe(200);
    expect((await problemOf(await send('theme=DARK&notify=1&email=nope'))).errors).toEqual([
      { field: 'email', message: 'must be a valid e-mail address' },
    ]);
  });
});

describe('answers', () => {
  it('wraps data in {"data": …} and answers 204 when the data is absent', async () => {
    const { app } = setup();
    const found = await app.request('/moduleknowledge/maybe?found=true');
    expect(found.status).toBe(200);
    expect(found.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(await found.json()).toEqual({ data: { value: 'here' } });
    const missing = await app.request('/moduleknowledge/maybe?found=false');
    expect(missing.status).toBe(204);
    expect(await missing.text()).toBe('');
  });

  it('passes an AppError from the implementation through the one error shape', async () => {
    const { app } = setup();
    const response = await app.request('/moduleknowledge/login', {
      method: 'POST',
      headers: JSON_TYPE,
      body: JSON.stringify({ username: 'ann', password: 'wrong password' }),
    });
    expect(response.status).toBe(400);
    expect(await problemOf(response)).toMatchObject({
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      code: 'wrong_password',
      detail: 'Wrong user name or password.',
    });
  });

  it('hides unexpected errors behind a generic 500', async () => {
    const { app } = setup();
    const response = await app.request('/moduleknowledge/explode', { method: 'POST' });
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({
      code: 'internal_error',
      detail: 'Internal server error.',
    });
    expect(text).not.toContain('hunter2');
  });

  it('sends a file with safe download headers', async () => {
    const { app } = setup();
    const response = await app.request('/moduleknowledge/files/7', { headers: USER });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('application/pdf');
    expect(response.headers.get('Content-Disposition')).toBe(
      `attachment; filename="_bersicht Q1.pdf"; filename*=UTF-8''%C3%9Cbersicht%20Q1.pdf`,
    );
    expect(response.headers.get('Content-Length')).toBe('8');
    expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(response.headers.get('X-Request-Id')).toEqual(expect.any(String));
    expect(new TextDecoder().decode(await response.arrayBuffer())).toBe('%PDF-1.7');
  });

  it('answers a failing download with the error shape', async () => {
    const { app } = setup();
    const response = await app.request('/moduleknowledge/files/8', { headers: USER });
    expect(response.status).toBe(404);
    expect((await problemOf(response)).code).toBe('not_found');
  });
});

describe('streaming', () => {
  const chat = (app: Hono, prompt: string, init: RequestInit = {}) =>
    app.request('/moduleknowledge/chat', {
      method: 'POST',
      headers: { ...USER, ...JSON_TYPE },
      body: JSON.stringify({ prompt }),
      ...init,
    });

  it('writes plain messages and named events as SSE, then closes', async () => {
    const { app, probe } = setup();
    const response = await chat(app, 'hi');
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('text/event-stream');
    // A stream for a user: never for a shared cache.
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    expect(response.headers.get('Connection')).toBe('keep-alive');
    expect(response.headers.get('X-Accel-Buffering')).toBe('no');
    // A comment first, at once: the stream is open before the source says anything.
    expect(await response.text()).toBe(
      ': open\n\n' +
        'event: sources\ndata: ["a.pdf","b.pdf"]\n\n' +
        'data: {"content":"echo: hi","type":"content"}\n\n' +
        'data: {"content":"line one\\nline two","type":"content"}\n\n' +
        'event: done\ndata: {"chunks":2}\n\n',
    );
    expect(probe.closed).toBe(true);
  });

  it('ends a failing stream with an error event in the problem shape, and closes it', async () => {
    const { app } = setup();
    const text = await (await chat(app, 'fail')).text();
    const events = text.split('\n\n').filter(Boolean);
    expect(events).toHaveLength(4);
    expect(events[0]).toBe(': open');
    const [head, data] = (events[3] ?? '').split('\n');
    expect(head).toBe('event: error');
    expect(JSON.parse((data ?? '').slice('data: '.length))).toMatchObject({
      status: 502,
      code: 'model_unavailable',
      detail: 'The model is away.',
      request_id: expect.any(String),
    });
  });

  it('keeps internals out of the error event of an unexpected failure', async () => {
    const { app } = setup();
    const text = await (await chat(app, 'crash')).text();
    expect(text).toContain('"code":"internal_error"');
    expect(text).not.toContain('secret internals');
  });

  it('lets the service write its own last message on failure', async () => {
    const onStreamError = vi.fn((err: unknown) => ({
      content: `Sorry: ${(err as Error).message}`,
      type: 'error',
    }));
    const { app } = setup({ onStreamError });
    const text = await (await chat(app, 'fail')).text();
    expect(text.endsWith('data: {"content":"Sorry: The model is away.","type":"error"}\n\n')).toBe(
      true,
    );
    expect(onStreamError).toHaveBeenCalledWith(expect.any(Error), {
      route: 'Chat',
      requestId: expect.any(String),
    });
  });

  it('allows a named event as the last message on failure', async () => {
    const { app } = setup({ onStreamError: () => sseEvent('oops', { ok: false }) });
    expect(await (await chat(app, 'fail')).text()).toMatch(
      /event: oops\ndata: \{"ok":false\}\n\n$/,
    );
  });

  it('stops iterating and returns the iterator when the client stops reading', async () => {
    const { app, probe } = setup();
    const response = await chat(app, 'forever');
    const reader = response.body!.getReader();
    await reader.read(); // the opening comment
    await reader.read(); // the first message
    await reader.cancel();
    await vi.waitFor(() => expect(probe.closed).toBe(true));
    const ticks = probe.ticks;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(probe.ticks).toBe(ticks);
  });

  it('stops iterating and returns the iterator when the request is aborted', async () => {
    const { app, probe } = setup();
    const controller = new AbortController();
    const response = await chat(app, 'forever', { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read(); // the opening comment
    await reader.read(); // the first message
    controller.abort();
    await vi.waitFor(() => expect(probe.closed).toBe(true));
  });
});

describe('authorization hook', () => {
  it('answers a missing or unknown token with plain-text 401 Unauthorised', async () => {
    const { app, calls } = setup();
    for (const headers of [{}, { Authorization: 'Bearer nope' }] as Record<string, string>[]) {
      const response = await app.request('/moduleknowledge/query?text=a', { headers });
      expect(response.status).toBe(401);
      expect(response.headers.get('Content-Type')).toBe('text/plain; charset=UTF-8');
      expect(response.headers.get('WWW-Authenticate')).toBe('Bearer');
      expect(response.headers.get('X-Request-Id')).toEqual(expect.any(String));
      expect(await response.text()).toBe('Unauthorised');
    }
    expect(calls).toEqual([]);
  });

  it('answers a role not permitted with plain-text 403 Access denied', async () => {
    const { app, calls } = setup();
    const response = await app.request('/moduleknowledge/files/1', {
      method: 'DELETE',
      headers: USER,
    });
    expect(response.status).toBe(403);
    expect(await response.text()).toBe('Access denied');
    expect(calls).toEqual([]);
  });

  it('runs before validation', async () => {
    const { app } = setup();
    const response = await app.request('/moduleknowledge/query');
    expect(response.status).toBe(401);
  });

  it('receives each route with its @role parameters', async () => {
    const seen: Array<[string, readonly string[] | undefined, string]> = [];
    const authorize = (access: AccessRequest) => {
      seen.push([access.route, access.roles, access.caller.transport]);
      return exampleAuthorize(access);
    };
    const { app } = setup({ authorize });
    await app.request('/moduleknowledge/query?text=a', { headers: USER });
    await app.request('/moduleknowledge/maybe?found=1');
    await app.request('/moduleknowledge/login', { method: 'POST', headers: JSON_TYPE, body: '{}' });
    expect(seen).toEqual([
      ['GetQuery', ['USER', 'SUPER_ADMIN'], 'http'],
      ['GetMaybe', undefined, 'http'],
      ['PostLogin', ['guest'], 'http'],
    ]);
  });

  it('receives the kind of credential a route takes (@credential), undefined for any', async () => {
    const service = defineService({
      name: 'svc',
      prefix: '/modulesvc',
      methods: {
        PostUser: method({ doc: '@credential(login)' }),
        PostCompletion: method({ doc: '@credential(key)' }),
        GetMe: method({}),
      },
    });
    const seen: Array<[string, string | undefined]> = [];
    const app = createModuleApp({ prefix: '/modulesvc', defaultName: 'x', nameVariable: 'X' });
    mountService(
      app,
      service,
      { PostUser: () => undefined, PostCompletion: () => undefined, GetMe: () => undefined },
      {
        authorize: (access) => {
          seen.push([access.route, access.credential]);
          return undefined;
        },
      },
    );
    await app.request('/modulesvc/user', { method: 'POST' });
    await app.request('/modulesvc/completion', { method: 'POST' });
    await app.request('/modulesvc/me');
    expect(seen).toEqual([
      ['PostUser', 'login'],
      ['PostCompletion', 'key'],
      ['GetMe', undefined],
    ]);
  });

  it('marks whatever a route that needs a token answers Cache-Control: no-store; guest routes not', async () => {
    const { app } = setup();
    const answered = await app.request('/moduleknowledge/query?text=a', { headers: USER });
    expect(answered.status).toBe(200);
    expect(answered.headers.get('Cache-Control')).toBe('no-store');
    const refused = await app.request('/moduleknowledge/query?text=a');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('Cache-Control')).toBe('no-store');
    const guest = await app.request('/moduleknowledge/login', {
      method: 'POST',
      headers: JSON_TYPE,
      body: JSON.stringify({ username: 'ann', password: 'correct horse' }),
    });
    expect(guest.headers.get('Cache-Control')).toBeNull();
  });

  it('lets guest and unannotated routes through without a token', async () => {
    const { app } = setup();
    expect((await app.request('/moduleknowledge/maybe?found=1')).status).toBe(200);
    const login = await app.request('/moduleknowledge/login', {
      method: 'POST',
      headers: JSON_TYPE,
      body: JSON.stringify({ username: 'ann', password: 'correct horse' }),
    });
    expect(await login.json()).toEqual({ data: { token: 'user-token', role: 'USER' } });
  });
});

describe('route names and @middleware', () => {
  it('runs a named middleware on its route only, with routeName set', async () => {
    const { app, audit } = setup();
    await app.request('/moduleknowledge/query?text=a', { headers: USER });
    const response = await app.request('/moduleknowledge/files/1', {
      method: 'DELETE',
      headers: ADMIN,
    });
    expect(response.headers.get('X-Audited')).toBe('yes');
    expect(audit).toEqual(['DeleteFile']);
  });

  it('gives middleware registered before the service the route name through routeNameOf', async () => {
    const app = createModuleApp({
      prefix: '/moduleknowledge',
      defaultName: 'x',
      nameVariable: 'X',
    });
    const seen: Array<string | undefined> = [];
    app.use('*', async (c, next) => {
      seen.push(routeNameOf(exampleService, c));
      await next();
    });
    mountService(app, exampleService, exampleImpl([]), {
      authorize: exampleAuthorize,
      middlewares: { audit: (_, next) => next() },
    });
    await app.request('/moduleknowledge/files/7', { headers: USER });
    await app.request('/moduleknowledge/files/7', { method: 'DELETE', headers: ADMIN });
    await app.request('/moduleknowledge/nowhere');
    await app.request('/moduleknowledge/docs');
    expect(seen).toEqual(['GetFile', 'DeleteFile', undefined, 'OpenApiDocs']);
  });
});

describe('docs routes', () => {
  it('serves the OpenAPI document and the docs page without credentials', async () => {
    const { app } = setup();
    const json = await app.request('/moduleknowledge/openapi.json');
    expect(json.status).toBe(200);
    const document = (await json.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toBe('3.0.3');
    expect(Object.keys(document.paths)).toContain('/moduleknowledge/query');
    const page = await app.request('/moduleknowledge/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('Content-Type')).toMatch(/^text\/html/);
    expect(page.headers.get('Content-Security-Policy')).toBe(API_REFERENCE_CSP);
    // The reference of this module's own document, built in the browser by Swagger UI.
    const html = await page.text();
    expect(html).toContain('data-openapi="/moduleknowledge/openapi.json"');
    expect(html).toContain(`<script src="${API_REFERENCE_ASSETS.script}" defer></script>`);
    expect(html).not.toMatch(/https?:\/\//);
  });

  it('serves the same document where go-doudou serves it, for the original’s clients', async () => {
    const { app } = setup();
    const original = await app.request('/moduleknowledge/go-doudou/openapi.json');
    expect(original.status).toBe(200);
    expect(await original.json()).toEqual(
      await (await app.request('/moduleknowledge/openapi.json')).json(),
    );
  });

  it('passes the docs routes through the authorize hook as guest routes', async () => {
    const seen: Array<[string, readonly string[] | undefined]> = [];
    const { app } = setup({
      authorize: (access) => {
        seen.push([access.route, access.roles]);
        return exampleAuthorize(access);
      },
    });
    await app.request('/moduleknowledge/openapi.json');
    await app.request('/moduleknowledge/docs');
    expect(seen).toEqual([
      ['OpenApiDocument', ['guest']],
      ['OpenApiDocs', ['guest']],
    ]);
    const closed = setup({
      authorize: () => {
        throw unauthorised('docs are private here');
      },
    });
    const refused = await closed.app.request('/moduleknowledge/openapi.json');
    expect(refused.status).toBe(401);
    expect(await refused.text()).toBe('Unauthorised');
  });

  it('can leave the docs routes out', async () => {
    const { app } = setup({ openapi: false });
    expect((await app.request('/moduleknowledge/openapi.json')).status).toBe(404);
  });
});

describe('mount-time checks', () => {
  const app = () =>
    createModuleApp({ prefix: '/moduleknowledge', defaultName: 'x', nameVariable: 'X' });
  const impl = exampleImpl([]);

  it('rejects an unknown @middleware name', () => {
    expect(() =>
      mountService(app(), exampleService, impl, { authorize: exampleAuthorize }),
    ).toThrow(/DeleteFile: @middleware\(audit\) is not among the mounted middlewares \[\]/);
  });

  it('rejects @role routes without an authorize hook', () => {
    expect(() =>
      mountService(app(), exampleService, impl, { middlewares: { audit: (_, next) => next() } }),
    ).toThrow(/GetQuery declares @role but no authorize hook/);
  });

  it('rejects an app whose base path is not the prefix', () => {
    const plain = new Hono();
    expect(() =>
      mountService(plain, exampleService, impl, {
        authorize: exampleAuthorize,
        middlewares: { audit: (_, next) => next() },
      }),
    ).toThrow(/mount it on an app whose base path is \/moduleknowledge/);
  });

  it('rejects a missing implementation and a route on the docs path', () => {
    const service = defineService({
      name: 'svc',
      prefix: '/moduleknowledge',
      methods: { GetDocs: method({}) },
    });
    expect(() => mountService(app(), service, {} as never)).toThrow(
      /no implementation for GetDocs/,
    );
    expect(() => mountService(app(), service, { GetDocs: () => undefined })).toThrow(
      /GET \/docs is the docs route/,
    );
    expect(() =>
      mountService(app(), service, { GetDocs: () => undefined }, { openapi: false }),
    ).not.toThrow();
  });
});
