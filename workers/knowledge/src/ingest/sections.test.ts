import { describe, expect, it } from 'vitest';
import {
  DOCUMENT_WORK_BUDGETS,
  DocumentTooComplex,
  DocumentWorkMeter,
  type DocumentWorkBudget,
} from './document-work-budget';
import { htmlSections, markdownSections, MAX_SECTION_CHARS, textSections } from './sections';

const meter = (format: keyof typeof DOCUMENT_WORK_BUDGETS) =>
  new DocumentWorkMeter(DOCUMENT_WORK_BUDGETS[format]);
const workOf = (read: () => unknown) => {
  try {
    read();
    return 'read';
  } catch (err) {
    return err instanceof DocumentTooComplex ? err.work : String(err);
  }
};

describe('HTML', () => {
  it('reads the visible text, a block per block element, h1–h3 as the section path', () => {
    const html = `<!doctype html><html><head><title>t</title><style>p{}</style></head><body>
      <script>alert(1)</script><h1>Rules</h1><p class="lead">First <b>bold</b> words.</p>
      <h3>Deep</h3><div>In <span>a</span> div<br>next line</div><template><p>hidden</p></template>
      <h2>Fees</h2><table><tr><td>Item</td><td>€5</td></tr></table><svg><text>drawn</text></svg>`;
    expect(htmlSections(html, meter('html'))).toEqual([
      { label: 'Rules', text: 'Rules\n\nFirst bold words.' },
      { label: 'Rules › Deep', text: 'Deep\n\nIn a div\n\nnext line' },
      { label: 'Rules › Fees', text: 'Fees\n\nItem\n\n€5' },
    ]);
  });

  it('walks a tree nested as deep as the budget allows without running out of stack', () => {
    const deep = `${'<div>'.repeat(500)}deep text`;
    expect(htmlSections(deep, meter('html'))).toEqual([{ label: null, text: 'deep text' }]);
    expect(workOf(() => htmlSections(`${'<div>'.repeat(520)}x`, meter('html')))).toBe('depth');
  });

  it('counts the elements the parser makes, not only the tags written', () => {
    // Four formatting elements, closed with the first paragraph, re-opened in each of the 40
    // that follow: 4 tags, 160 elements more.
    const budget: DocumentWorkBudget = { ...DOCUMENT_WORK_BUDGETS.html, maxElements: 100 };
    const html = `<p><b><i><u><s>${'<p>x'.repeat(40)}`;
    expect(workOf(() => htmlSections(html, new DocumentWorkMeter(budget)))).toBe('elements');
    expect(htmlSections(html, meter('html'))).toHaveLength(1);
  });

  it('keeps text that arrives in many runs whole and in order, foster-parented text too', () => {
    // parse5 hands over a word and the space after it as two runs: 30,000 of them here.
    const words = Array.from({ length: 15_000 }, (_, i) => `w${i}`).join(' ');
    expect(htmlSections(`<p>${words}</p>`, meter('html'))).toEqual(
      textSections(words, meter('text')),
    );
    // Text inside a table but outside its cells is moved before the table, run by run.
    expect(
      htmlSections('<table>moved one <tr><td>cell</td></tr> moved two</table>', meter('html')),
    ).toEqual([{ label: null, text: 'moved one moved two\n\ncell' }]);
  });

  it('charges text as the parser builds it, before any block is read', () => {
    const budget: DocumentWorkBudget = { ...DOCUMENT_WORK_BUDGETS.html, maxTextChars: 100 };
    const html = `<script>${'x'.repeat(200)}</script><p>short`;
    expect(workOf(() => htmlSections(html, new DocumentWorkMeter(budget)))).toBe('textChars');
  });
});

describe('Markdown', () => {
  it('starts sections at headings of level 1–3 and keeps each block’s source', () => {
    const md =
      '# 总则\n\n第一条 **加粗**。\n\n```\n# not a heading\n```\n\n## 附则\n\n- 一\n- 二\n\n#### 细则\n\n文本';
    expect(markdownSections(md, meter('markdown'))).toEqual([
      { label: '总则', text: '# 总则\n\n第一条 **加粗**。\n\n```\n# not a heading\n```' },
      { label: '总则 › 附则', text: '## 附则\n\n- 一\n- 二\n\n#### 细则\n\n文本' },
    ]);
  });

  it('bounds nesting from the lines before lexing: quotes, lists and indentation', () => {
    expect(workOf(() => markdownSections(`${'>'.repeat(65)} a\n`, meter('markdown')))).toBe(
      'depth',
    );
    expect(workOf(() => markdownSections(`${'- '.repeat(65)}a\n`, meter('markdown')))).toBe(
      'depth',
    );
    expect(workOf(() => markdownSections(`${' '.repeat(130)}a\n`, meter('markdown')))).toBe(
      'depth',
    );
    expect(workOf(() => markdownSections(`${'1. '.repeat(65)}a\n`, meter('markdown')))).toBe(
      'depth',
    );
    // Ordinary nesting reads.
    expect(markdownSections('> - a\n>   - b\n>     > c\n', meter('markdown'))).toHaveLength(1);
  });

  it('bounds the lines, each of which may become a token', () => {
    const budget: DocumentWorkBudget = { ...DOCUMENT_WORK_BUDGETS.markdown, maxElements: 10 };
    expect(workOf(() => markdownSections('a\n'.repeat(11), new DocumentWorkMeter(budget)))).toBe(
      'elements',
    );
    expect(markdownSections('a\n\n'.repeat(10), new DocumentWorkMeter(budget))).toHaveLength(1);
  });
});

describe('plain text', () => {
  it('gathers paragraphs into sections of at most a page, counting characters, not code units', () => {
    // 𠀀 is one character and two UTF-16 code units.
    const paragraph = '𠀀'.repeat(1_000);
    const sections = textSections(Array(8).fill(paragraph).join('\r\n\r\n'), meter('text'));
    expect(sections.map((s) => [...s.text].length)).toEqual([3_004, 3_004, 2_002]);
    expect(sections.every((s) => [...s.text].length <= MAX_SECTION_CHARS)).toBe(true);
  });

  it('keeps a paragraph longer than a page whole, in a section of its own', () => {
    const long = 'a'.repeat(MAX_SECTION_CHARS + 10);
    expect(textSections(`x\n\n${long}\n\ny`, meter('text')).map((s) => s.text.length)).toEqual([
      1,
      MAX_SECTION_CHARS + 10,
      1,
    ]);
  });

  it('stops at the block budget, and reads 200,000 paragraphs in linear time', () => {
    expect(workOf(() => textSections('a\n\n'.repeat(200_001), meter('text')))).toBe('blocks');
    expect(textSections('a\n\n'.repeat(200_000), meter('text')).length).toBeGreaterThan(100);
  });
});
