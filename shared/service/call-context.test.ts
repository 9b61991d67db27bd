import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { httpCallContext, rpcCallContext } from './call-context';
import { defineService, method } from './define';

const service = defineService({ name: 'c', prefix: '/modulec', methods: { GetX: method({}) } });
const route = service.routes[0]!;

describe('httpCallContext', () => {
  it('carries the route, principal, env, signal and request id of the request', async () => {
    const app = new Hono<{ Bindings: { NAME: string } }>();
    let seen: Record<string, unknown> = {};
    app.get('/x', (c) => {
      c.set('principal', { name: 'ann' });
      const ctx = httpCallContext<{ NAME: string }, { name: string }>(c, route, service.name);
      ctx.waitUntil(Promise.reject(new Error('ignored without an execution context')));
      seen = {
        route: ctx.route,
        principal: ctx.principal,
        env: ctx.env,
        http: ctx.http === c,
        aborted: ctx.signal.aborted,
      };
      return c.text('ok');
    });
    await app.request('/x', {}, { NAME: 'n' });
    expect(seen).toEqual({
      route: 'GetX',
      principal: { name: 'ann' },
      env: { NAME: 'n' },
      http: true,
      aborted: false,
    });
  });

  it('hands waitUntil to the execution context when there is one', async () => {
    const app = new Hono();
    let finished = false;
    app.get('/x', (c) => {
      httpCallContext(c, route, service.name).waitUntil(
        new Promise((resolve) => setTimeout(resolve, 5)).then(() => (finished = true)),
      );
      return c.text('ok');
    });
    const ctx = createExecutionContext();
    await app.fetch(new Request('http://x/x'), {}, ctx);
    await waitOnExecutionContext(ctx);
    expect(finished).toBe(true);
  });
});

describe('rpcCallContext', () => {
  it('has no HTTP context and keeps the caller request id', () => {
    const ctx = rpcCallContext({
      route,
      serviceName: service.name,
      principal: 'p',
      env: { A: 1 },
      ctx: createExecutionContext(),
      requestId: 'r-1',
    });
    expect({
      route: ctx.route,
      principal: ctx.principal,
      env: ctx.env,
      http: ctx.http,
      requestId: ctx.requestId,
    }).toEqual({
      route: 'GetX',
      principal: 'p',
      env: { A: 1 },
      http: undefined,
      requestId: 'r-1',
    });
    expect(ctx.signal.aborted).toBe(false);
  });
});
