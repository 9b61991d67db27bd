// How the web app is served by `npm run dev`'s stack (wrangler dev with Workers static
// assets): the page's security headers, the assets, and module paths that no file can shadow.
import { describe, expect, inject, it } from 'vitest';

const { baseUrl } = inject('e2e');
const get = (path: string, init?: RequestInit) => fetch(`${baseUrl}${path}`, init);

describe('the page at /', () => {
  it('is the app shell: one module script and one stylesheet from /assets, nothing inline', async () => {
    const res = await get('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain('<script type="module" src="/assets/app.js"></script>');
    expect(html).toContain('<link rel="stylesheet" href="/assets/app.css">');
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toMatch(/<style|style=|\son[a-z]+=|https?:\/\//i);
  });

  it('carries a strict CSP and the usual security headers', async () => {
    const res = await get('/');
    const csp = res.headers.get('content-security-policy') ?? '';
    const directives = Object.fromEntries(
      csp.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values.join(' ')];
      }),
    );
    expect(directives).toMatchObject({
      'default-src': "'self'",
      'script-src': "'self'",
      'style-src': "'self'",
      'object-src': "'none'",
      'base-uri': "'none'",
      'frame-ancestors': "'none'",
      'require-trusted-types-for': "'script'",
      // The Markdown renderer's policy, and no other.
      'trusted-types': 'kbchat-markdown kbchat-pdf-worker',
    });
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*|https?:/);
    expect(Object.fromEntries(res.headers)).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
    });
    expect(res.headers.get('permissions-policy')).toMatch(/camera=\(\)/);
  });
});

describe('static assets', () => {
  it.each([
    ['/assets/app.js', /^text\/javascript|^application\/javascript/],
    ['/assets/app.css', /^text\/css/],
    ['/assets/icon.svg', /^image\/svg\+xml/],
  ])('%s is served with its type, never sniffed', async (path, type) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(type);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('etag')).toBeTruthy();
  });

  // Turning strings into markup is left to the Trusted Types policy (test/e2e/markdown.test.ts).
  it('the bundle holds no Workers-only code', async () => {
    const js = await (await get('/assets/app.js')).text();
    expect(js).not.toContain('cloudflare:workers');
  });

  it('an unknown asset is a 404', async () => {
    expect((await get('/assets/nope.js')).status).toBe(404);
  });
});

describe('module paths are never shadowed by the assets', () => {
  it.each([
    ['/moduleauth/health', 'kbchat.auth.ModuleAuth'],
    ['/moduleknowledge/health', 'kbchat.knowledge.ModuleKnowledge'],
    ['/modulechat/health', 'kbchat.chat.ModuleChat'],
  ])('%s reaches its module', async (path, module) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ data: { module } });
  });

  it('the gateway still answers /health, /docs and /openapi.json', async () => {
    expect((await get('/health')).status).toBe(200);
    expect((await get('/openapi.json')).status).toBe(200);
    const docs = await get('/docs');
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-security-policy')).toMatch(/^default-src 'none'; /);
  });
});
