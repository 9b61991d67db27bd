import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { onError } from '../errors/on-error';
import { defineService, method, routeOf } from './define';
import { readParams } from './read-request';
import { fileParam } from './schema-kind';

const service = defineService({
  name: 'r',
  prefix: '/moduler',
  methods: {
    GetItems: method({
      params: {
        n: z.number().optional(),
        flags: z.array(z.boolean()).optional(),
        filter: z.object({ a: z.string().optional() }).optional(),
      },
    }),
    PostForm: method({ params: { a: z.number(), b: z.string().optional() } }),
    PostJson: method({ params: { body: z.object({ x: z.number() }).optional() } }),
    PostFile: method({ params: { f: fileParam(), text: z.string().optional() } }),
  },
});

/** Answers with the raw values readParams collected, before any validation. */
function echo(name: string) {
  const route = routeOf(service, name);
  const app = new Hono();
  app.onError(onError);
  app.on(route.httpMethod, route.fullPath, async (c) => {
    const raw = await readParams(route, c);
    return c.json(
      Object.fromEntries(
        Object.entries(raw).map(([k, v]) => [k, v instanceof File ? `file:${v.name}` : v]),
      ),
    );
  });
  return (path: string, init?: RequestInit) => app.request(path, init);
}

describe('readParams', () => {
  it('reads and coerces query values, spreading objects, absent when not sent', async () => {
    const get = echo('GetItems');
    expect(await (await get('/moduler/items?n=2&flags=true&flags=0&a=x')).json()).toEqual({
      n: 2,
      flags: [true, false],
      filter: { a: 'x' },
    });
    expect(await (await get('/moduler/items')).json()).toEqual({});
  });

  it('takes the first of repeated values for a scalar', async () => {
    expect(await (await echo('GetItems')('/moduler/items?n=1&n=2')).json()).toEqual({ n: 1 });
  });

  it('reads urlencoded and multipart forms alike', async () => {
    const post = echo('PostForm');
    const urlencoded = await post('/moduler/form', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'a=3&b=x',
    });
    expect(await urlencoded.json()).toEqual({ a: 3, b: 'x' });
    const data = new FormData();
    data.append('a', '4');
    expect(await (await post('/moduler/form', { method: 'POST', body: data })).json()).toEqual({
      a: 4,
    });
  });

  it('reads nothing from a request without a body', async () => {
    expect(await (await echo('PostForm')('/moduler/form', { method: 'POST' })).json()).toEqual({});
    expect(await (await echo('PostJson')('/moduler/json', { method: 'POST' })).json()).toEqual({});
  });

  it('passes a file sent where text is expected on for the schema to reject', async () => {
    const data = new FormData();
    data.append('f', new File(['x'], 'x.txt'));
    data.append('text', new File(['y'], 'y.txt'));
    const response = await echo('PostFile')('/moduler/file', { method: 'POST', body: data });
    expect(await response.json()).toEqual({ f: 'file:x.txt', text: 'file:y.txt' });
  });

  it('refuses a body it cannot read with 415, and bad JSON with 400', async () => {
    const json = echo('PostJson');
    const wrongType = await json('/moduler/json', { method: 'POST', body: 'x=1' });
    expect(wrongType.status).toBe(415);
    const bad = await json('/moduler/json', {
      method: 'POST',
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: '{',
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'malformed_json' });
  });
});
