import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';

const get = (path: string, init?: RequestInit) =>
  exports.default.fetch(new Request(`http://kb.test${path}`, init));

describe('one domain, three modules', () => {
  it.each([
    ['/moduleauth/health', 'kbchat.auth.ModuleAuth'],
    ['/moduleknowledge/health', 'kbchat.knowledge.ModuleKnowledge'],
    ['/modulechat/health', 'kbchat.chat.ModuleChat'],
  ])('%s reaches its own worker', async (path, module) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ data: { module } });
  });

  it('chat health proves RPC to knowledge, the database and the model endpoint', async () => {
    const res = await get('/modulechat/health');
    const { data: body } = await res.json<{
      data: {
        knowledge: { module: string; database: { ok: boolean; pgvector: string | null } };
        model: { ok: boolean; dimensions: number };
      };
    }>();
    expect(body.knowledge.module).toBe('kbchat.knowledge.ModuleKnowledge');
    expect(body.knowledge.database.ok).toBe(true);
    expect(body.knowledge.database.pgvector).toMatch(/^0\.\d+\.\d+$/);
    expect(body.model).toMatchObject({ ok: true, dimensions: 1536 });
  });

  it('matches whole path segments only', async () => {
    const res = await get('/moduleauthx/health');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(await res.json()).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('serves the root', async () => {
    const res = await get('/');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('/modulechat');
  });
});

describe('request ids', () => {
  it('echoes a well-formed incoming X-Request-Id', async () => {
    const res = await get('/moduleauth/health', { headers: { 'X-Request-Id': 'trace-123' } });
    expect(res.headers.get('x-request-id')).toBe('trace-123');
  });

  it('generates one otherwise, and puts it in error bodies', async () => {
    const res = await get('/moduleknowledge/nope', { headers: { 'X-Request-Id': 'bad id!' } });
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await res.json()).toMatchObject({ request_id: id });
  });
});
