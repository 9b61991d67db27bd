import { setCookie } from 'hono/cookie';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { createModuleApp } from '../module/module-app';
import { AppError } from '../errors/app-error';
import { createClient } from './client';
import { defineService, method } from './define';
import { mountService } from './mount';
import { openApiDocument } from './openapi';
import { isRedirectSpec, redirect } from './redirect';

const service = defineService({
  name: 'svc',
  prefix: '/modulesvc',
  methods: {
    GetGo: method({
      doc: 'Sends the browser on.',
      params: { to: z.string() },
      output: redirect(),
    }),
  },
});

function app() {
  const module = createModuleApp({ prefix: '/modulesvc', defaultName: 'x', nameVariable: 'X' });
  return mountService(module, service, {
    GetGo: async ({ to }, ctx) => {
      if (to === 'nowhere') throw new AppError('validation_failed', { detail: 'nowhere' });
      // A header the implementation sets goes out with the redirect.
      setCookie(ctx.http!, 'seen', '1', { path: '/modulesvc', httpOnly: true });
      return { location: to };
    },
  });
}

describe('redirect()', () => {
  it('is recognised as a redirect declaration', () => {
    expect(isRedirectSpec(redirect())).toBe(true);
    expect(isRedirectSpec({ kind: 'fileDownload' })).toBe(false);
  });

  it('answers 302 with the Location and the headers the implementation set', async () => {
    const response = await app().request('/modulesvc/go?to=https://idp.example/auth?x=1');
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('https://idp.example/auth?x=1');
    expect(response.headers.get('Set-Cookie')).toMatch(/^seen=1; Path=\/modulesvc; HttpOnly/);
  });

  it('answers a failure as any route does, without a Location', async () => {
    const response = await app().request('/modulesvc/go?to=nowhere');
    expect(response.status).toBe(400);
    expect(response.headers.get('Location')).toBeNull();
  });

  it('is described as a 302 with a Location header', () => {
    const operation = openApiDocument(service).paths['/modulesvc/go']!.get as {
      responses: Record<string, { headers?: Record<string, unknown> }>;
    };
    expect(Object.keys(operation.responses)).toContain('302');
    expect(operation.responses['302']!.headers).toHaveProperty('Location');
  });

  it('gives the client the Location instead of following it', async () => {
    const mounted = app();
    const client = createClient(service, {
      baseUrl: 'http://local',
      fetch: (request) => {
        expect(request.redirect).toBe('manual');
        return Promise.resolve(mounted.request(request));
      },
    });
    expect(await client.GetGo({ to: '/elsewhere' })).toEqual({ location: '/elsewhere' });
  });

  it('cannot be offered over RPC', () => {
    expect(() =>
      defineService({
        name: 'svc',
        prefix: '/modulesvc',
        methods: { GetGo: method({ doc: '@grpc', output: redirect() }) },
      }),
    ).toThrow(/@grpc methods cannot stream, redirect/);
  });
});
