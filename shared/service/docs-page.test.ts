import { describe, expect, it } from 'vitest';
import { defineService, method } from './define';
import { escapeHtml, renderDocsPage } from './docs-page';
import { exampleService } from './fixtures/example-service';
import { openApiDocument } from './openapi';

describe('renderDocsPage', () => {
  const html = renderDocsPage(openApiDocument(exampleService));

  it('is a complete page without scripts or external resources', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<title>knowledge API</title>');
    expect(html).not.toMatch(/<script|<link|src=|@import|url\(/i);
    expect(html).not.toMatch(/https?:\/\//);
  });

  it('lists every operation with its verb, path, description and parameters', () => {
    for (const route of exampleService.routes) expect(html).toContain(`id="op-${route.name}"`);
    expect(html).toContain(
      '<span class="verb get">GET</span> <code>/moduleknowledge/files/{id}</code>',
    );
    expect(html).toContain('Similarity query over the knowledge base.');
    expect(html).toContain('<td><code>text</code></td><td>query</td><td>yes</td>');
    expect(html).toContain('<code>multipart/form-data</code>');
    expect(html).toContain('<code>text/event-stream</code>');
    expect(html).toContain('id="schema-Problem"');
  });

  it('escapes text from the declaration', () => {
    const service = defineService({
      name: 'x',
      prefix: '/modulex',
      doc: '<img onerror=alert(1)> & "quotes"',
      methods: { GetA: method({ doc: '<script>alert(1)</script>' }) },
    });
    const page = renderDocsPage(openApiDocument(service));
    expect(page).not.toContain('<script>');
    expect(page).not.toContain('<img');
    expect(page).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe(
      '&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;',
    );
  });
});
