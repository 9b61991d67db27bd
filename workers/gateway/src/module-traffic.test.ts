import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import gateway from './index';

describe('a module that cannot answer', () => {
  it('is answered by the gateway with the one problem shape and a request id, nothing internal', async () => {
    const failing = env.FAILING_MODULE;
    const res = await gateway.fetch(
      new Request('http://kb.example/modulechat/chat', { method: 'POST', body: '{}' }),
      { CHAT: failing, AUTH: failing, KNOWLEDGE: failing } as unknown as GatewayEnv,
    );
    expect(res.status).toBe(503);
    expect(res.headers.get('Content-Type')).toBe('application/problem+json');
    const body = await res.text();
    const problem = JSON.parse(body) as Record<string, unknown>;
    expect(problem).toEqual({
      type: 'about:blank',
      title: 'Service Unavailable',
      status: 503,
      detail: 'The service is unavailable right now. Try again in a moment.',
      code: 'module_unavailable',
      request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(res.headers.get('X-Request-Id')).toBe(problem.request_id);
    expect(body).not.toMatch(/boom|file:|internal\.js|Error/);
  });
});

describe('a range request', () => {
  it('reaches the module with its Range header, and its 206 comes back as the module sent it', async () => {
    let seen: string | null = null;
    const knowledge = {
      fetch: async (request: Request) => {
        seen = request.headers.get('Range');
        return new Response('PDF-', {
          status: 206,
          headers: {
            'Content-Range': 'bytes 1-4/1000',
            'Accept-Ranges': 'bytes',
            'Content-Length': '4',
          },
        });
      },
    };
    const res = await gateway.fetch(
      new Request('http://kb.example/moduleknowledge/download?id=x', {
        headers: { Range: 'bytes=1-4' },
      }),
      { KNOWLEDGE: knowledge } as unknown as GatewayEnv,
    );
    expect(seen).toBe('bytes=1-4');
    expect(res.status).toBe(206);
    expect(res.headers.get('Content-Range')).toBe('bytes 1-4/1000');
    expect(res.headers.get('Accept-Ranges')).toBe('bytes');
    expect(res.headers.get('Content-Length')).toBe('4');
    expect(await res.text()).toBe('PDF-');
  });
});
