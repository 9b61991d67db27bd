import { describe, expect, it } from 'vitest';
import {
  API_REFERENCE_ASSETS,
  API_REFERENCE_CSP,
  escapeHtml,
  renderApiReferencePage,
} from './api-reference-page';

describe('renderApiReferencePage', () => {
  const html = renderApiReferencePage({
    title: 'knowledge',
    openApiUrl: '/moduleknowledge/openapi.json',
  });

  it('loads Swagger UI and its start script from this origin, nothing inline', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<title>knowledge API</title>');
    expect(html).toContain(`<link rel="stylesheet" href="${API_REFERENCE_ASSETS.style}">`);
    expect(html).toContain(`<script src="${API_REFERENCE_ASSETS.script}" defer></script>`);
    expect(html).toContain(`<script src="${API_REFERENCE_ASSETS.start}" defer></script>`);
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html).not.toMatch(/<style|style=|\son[a-z]+=|https?:\/\//i);
  });

  it('names the document to show', () => {
    expect(html).toContain('data-openapi="/moduleknowledge/openapi.json"');
  });

  it('escapes the title and address', () => {
    const page = renderApiReferencePage({ title: '<script>x</script>', openApiUrl: '"><b>' });
    expect(page).not.toContain('<script>x');
    expect(page).not.toContain('"><b>');
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe(
      '&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;',
    );
  });

  it('has a CSP with no inline script or style, no eval, and this origin only', () => {
    expect(API_REFERENCE_CSP).toContain("default-src 'none'");
    expect(API_REFERENCE_CSP).toContain("script-src 'self'");
    expect(API_REFERENCE_CSP).toContain("style-src 'self'");
    expect(API_REFERENCE_CSP).toContain("frame-ancestors 'none'");
    expect(API_REFERENCE_CSP).not.toMatch(/unsafe|https?:|\*/);
  });
});

describe('the page in Chinese', () => {
  it('says its language and titles itself in it', () => {
    const html = renderApiReferencePage({
      title: 'kbchat：知识库问答',
      openApiUrl: '/openapi.json?lang=zh',
      language: 'zh',
    });
    expect(html).toContain('<html lang="zh-CN">');
    expect(html).toContain('<title>kbchat：知识库问答 API 参考</title>');
    expect(html).toContain('data-openapi="/openapi.json?lang=zh"');
    expect(html).toContain('API 参考需要 JavaScript');
  });

  it('is English by default', () => {
    const html = renderApiReferencePage({ title: 'auth', openApiUrl: '/moduleauth/openapi.json' });
    expect(html).toContain('<html lang="en">');
    expect(html).not.toMatch(/\p{Script=Han}/u);
  });
});
