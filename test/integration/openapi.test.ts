import { Validator } from '@cfworker/json-schema';
import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { authService } from '#shared/contracts/auth';
import { chatService } from '#shared/contracts/chat';
import { knowledgeService } from '#shared/contracts/knowledge';
import { openApi30Schema } from '#shared/service/fixtures/openapi-3.0-schema';

type Doc = { paths: Record<string, Record<string, unknown>> };

const get = (path: string) => exports.default.fetch(new Request(`http://kb.test${path}`));

const operationsOf = (doc: Doc) =>
  Object.entries(doc.paths)
    .flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`))
    .sort();

const declared = (
  services: readonly { routes: readonly { httpMethod: string; fullPath: string }[] }[],
) =>
  services
    .flatMap((s) => s.routes.map((r) => `${r.httpMethod} ${r.fullPath.replace(/:(\w+)/g, '{$1}')}`))
    .sort();

const validate = (doc: unknown) => {
  const result = new Validator(openApi30Schema, '4', false).validate(doc);
  return result.errors.map((e) => `${e.instanceLocation}: ${e.error}`);
};

describe('interface descriptions', () => {
  it.each(['/moduleauth', '/moduleknowledge', '/modulechat'])(
    '%s/go-doudou/openapi.json, where the original’s generated clients fetch it, is the same document',
    async (prefix) => {
      const res = await get(`${prefix}/go-doudou/openapi.json`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(await (await get(`${prefix}/openapi.json`)).json());
    },
  );

  it.each([
    ['/moduleauth/openapi.json', authService],
    ['/moduleknowledge/openapi.json', knowledgeService],
    ['/modulechat/openapi.json', chatService],
  ])('%s is valid OpenAPI 3.0 and lists exactly the served routes', async (path, service) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    const doc = await res.json<Doc>();
    expect(validate(doc)).toEqual([]);
    expect(operationsOf(doc)).toEqual(declared([service]));
  });

  it('the root serves the merged document of all three modules', async () => {
    const doc = await (await get('/openapi.json')).json<Doc>();
    expect(validate(doc)).toEqual([]);
    expect(operationsOf(doc)).toEqual(declared([authService, knowledgeService, chatService]));
  });

  it.each([
    ['/docs', '/openapi.json'],
    ['/moduleauth/docs', '/moduleauth/openapi.json'],
    ['/moduleknowledge/docs', '/moduleknowledge/openapi.json'],
    ['/modulechat/docs', '/modulechat/openapi.json'],
  ])('%s is the API reference of %s, with scripts from this origin only', async (path, doc) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`data-openapi="${doc}"`);
    expect(html).not.toMatch(/<script[^>]+src="(?!\/assets\/)|<link[^>]+href="https?:/);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
  });
});
