// The web app's Markdown parser (web/src/markdown.ts), which has no DOM dependency: the tree it
// builds holds only strings, which the page turns into text nodes.
import { describe, expect, it } from 'vitest';
import { parseInline, parseMarkdown, safeHref } from '../../web/src/markdown';

describe('blocks', () => {
  it('numbered points become one ordered list, keeping the start number', () => {
    expect(parseMarkdown('1. Refunds within 45 days. [1]\n2. Paid to the card. [1]')).toEqual([
      {
        type: 'list',
        ordered: true,
        start: 1,
        items: [
          [{ type: 'paragraph', content: [{ type: 'text', text: 'Refunds within 45 days. [1]' }] }],
          [{ type: 'paragraph', content: [{ type: 'text', text: 'Paid to the card. [1]' }] }],
        ],
      },
    ]);
    expect(parseMarkdown('3. third\n4. fourth')[0]).toMatchObject({ start: 3 });
  });

  it('a loose list (blank lines between items) stays one list', () => {
    const blocks = parseMarkdown('1. one\n\n2. two\n\n3. three\n\nAfter.');
    expect(blocks.map((b) => b.type)).toEqual(['list', 'paragraph']);
    expect(blocks[0]).toMatchObject({ items: [[{}], [{}], [{}]] });
  });

  it('nests lists by indentation', () => {
    const [list] = parseMarkdown(
      '1. Eligibility\n   - income below $31,400\n   - 12 months\n2. Amount',
    );
    expect(list).toMatchObject({ type: 'list', ordered: true });
    const items = (list as { items: unknown[][] }).items;
    expect(items).toHaveLength(2);
    expect(items[0]).toMatchObject([
      { type: 'paragraph' },
      { type: 'list', ordered: false, items: [[{}], [{}]] },
    ]);
  });

  it('paragraphs, headings, code, quotes and rules', () => {
    expect(
      parseMarkdown(
        '# Title\n\nLine one\nline two\n\n```\n<b>code</b>\n```\n\n> quoted\n\n---',
      ).map((b) => b.type),
    ).toEqual(['heading', 'paragraph', 'code', 'quote', 'rule']);
    expect(parseMarkdown('```\n<b>code</b>\n```')).toEqual([{ type: 'code', text: '<b>code</b>' }]);
    expect(parseMarkdown('a\nb')).toEqual([
      {
        type: 'paragraph',
        content: [{ type: 'text', text: 'a' }, { type: 'break' }, { type: 'text', text: 'b' }],
      },
    ]);
  });

  it('Chinese answers parse like any other', () => {
    expect(parseMarkdown('1. 持有银杉卡的市民享受八折优惠。[1]')[0]).toMatchObject({
      type: 'list',
      items: [[{ content: [{ text: '持有银杉卡的市民享受八折优惠。[1]' }] }]],
    });
  });
});

describe('inline', () => {
  it('strong, emphasis and code', () => {
    expect(parseInline('**45 days** and *never* in `cash`')).toEqual([
      { type: 'strong', children: [{ type: 'text', text: '45 days' }] },
      { type: 'text', text: ' and ' },
      { type: 'em', children: [{ type: 'text', text: 'never' }] },
      { type: 'text', text: ' in ' },
      { type: 'code', text: 'cash' },
    ]);
  });

  it('markup is text: tags, entities and handlers come out as the characters they are', () => {
    const source = '<img src=x onerror="alert(1)"> &amp; <script>alert(2)</script>';
    expect(parseInline(source)).toEqual([{ type: 'text', text: source }]);
  });

  it('only http(s) and mailto links are links', () => {
    expect(parseInline('[charter](https://example.org/a)')).toEqual([
      {
        type: 'link',
        href: 'https://example.org/a',
        children: [{ type: 'text', text: 'charter' }],
      },
    ]);
    for (const href of ['javascript:alert(1)', 'data:text/html,hi', 'vbscript:x', '/relative']) {
      expect(parseInline(`[x](${href})`)).toEqual([{ type: 'text', text: `[x](${href})` }]);
      expect(safeHref(href)).toBeUndefined();
    }
  });

  it('unmatched markers and escapes stay literal', () => {
    expect(parseInline('2 * 3 = 6, a*b, \\*not em\\*')).toEqual([
      { type: 'text', text: '2 * 3 = 6, a*b, *not em*' },
    ]);
  });
});
