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
      { label: 'Rules › Fees', text: 'Fees\n\n| Item | €5 |\n| --- | --- |' },
    ]);
  });

  it('reads a table of data as a Markdown table, merged cells keeping its rows as wide as its grid', () => {
    const html = `<p>Before</p><table><caption>补贴标准</caption>
      <thead><tr><th rowspan="2">地区</th><th colspan="2">2024年</th></tr>
        <tr><th>租房</th><th>购房</th></tr></thead>
      <tbody><tr><td rowspan="2">东区</td><td>100<br>每月</td><td><p>a|b</p><p>c</p></td></tr>
        <tr><td colspan="2">同上</td></tr>
        <tr><td>西区</td><td colspan="999999">无</td></tr></tbody></table><p>After</p>`;
    expect(htmlSections(html, meter('html'))).toEqual([
      {
        label: null,
        text: [
          'Before',
          '补贴标准',
          [
            '| 地区 | 2024年 租房 | 2024年 购房 |',
            '| --- | --- | --- |',
            '| 东区 | 100 每月 | a\\|b c |',
            '| 东区 | 同上 | |',
            '| 西区 | 无 | |',
          ].join('\n'),
          'After',
        ].join('\n\n'),
      },
    ]);
    // A cell spanning "999999" columns spans to the end of the row, and the table is no wider.
    expect(
      htmlSections(
        '<table><tr><td>a</td><td>b</td></tr><tr><td colspan="999999">c</td></tr></table>',
        meter('html'),
      ),
    ).toEqual([{ label: null, text: '| a | b |\n| --- | --- |\n| c | |' }]);
  });

  it('reads a table that lays the page out as before, a block per block element', () => {
    const nested = `<table><tr><td>菜单</td><td><table><tr><td>名称</td><td>金额</td></tr><tr><td>甲</td><td>1</td></tr></table></td></tr></table>`;
    expect(htmlSections(nested, meter('html'))).toEqual([
      { label: null, text: '菜单\n\n| 名称 | 金额 |\n| --- | --- |\n| 甲 | 1 |' },
    ]);
    const article = `<table><tr><td>导航</td><td><p>${'正文'.repeat(600)}</p></td></tr></table>`;
    expect(htmlSections(article, meter('html'))[0]?.text.startsWith('导航\n\n正文')).toBe(true);
    const headed = '<table><tr><td>x</td><td><h2>通知</h2><p>内容</p></td></tr></table>';
    expect(htmlSections(headed, meter('html'))).toEqual([
      { label: null, text: 'x' },
      { label: '通知', text: '通知\n\n内容' },
    ]);
    const presentation = '<table role="presentation"><tr><td>左</td><td>右</td></tr></table>';
    expect(htmlSections(presentation, meter('html'))).toEqual([{ label: null, text: '左\n\n右' }]);
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

  it('charges the text a table cell spanning rows repeats', () => {
    const budget: DocumentWorkBudget = { ...DOCUMENT_WORK_BUDGETS.html, maxTextChars: 1_000 };
    const rows = '<tr><td>b</td></tr>'.repeat(40);
    const html = `<table><tr><td rowspan="9999">${'x'.repeat(40)}</td><td>a</td></tr>${rows}</table>`;
    expect(workOf(() => htmlSections(html, new DocumentWorkMeter(budget)))).toBe('textChars');
    expect(htmlSections(html, meter('html'))[0]?.text.split('\n')).toHaveLength(42);
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

  it('keeps a table’s source, a long one going on in the next section under its header again', () => {
    const rows = Array.from({ length: 200 }, (_, i) => `| 第${i + 1}项 | ${'说明'.repeat(10)} |`);
    const md = `# 表\n\n| 事项 | 内容 |\n|---|:-:|\n${rows.join('\n')}\n\n后文`;
    const sections = markdownSections(md, meter('markdown'));
    expect(sections.length).toBeGreaterThan(1);
    expect(sections.every((s) => s.label === '表' && [...s.text].length <= MAX_SECTION_CHARS)).toBe(
      true,
    );
    expect(sections[0]?.text.startsWith('# 表\n\n| 事项 | 内容 |\n|---|:-:|\n| 第1项 |')).toBe(
      true,
    );
    for (const section of sections.slice(1, -1)) {
      expect(section.text.startsWith('| 事项 | 内容 |\n|---|:-:|\n| 第')).toBe(true);
    }
    const lines = sections.flatMap((s) => s.text.split('\n')).filter((l) => l.startsWith('| 第'));
    expect(lines).toEqual(rows);
    expect(sections.at(-1)?.text.endsWith('\n\n后文')).toBe(true);
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
