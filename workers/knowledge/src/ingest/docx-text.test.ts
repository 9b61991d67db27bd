import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { docxWithBody } from '../../../../dev/fixtures/hostile-documents';
import { DocumentTooComplex, type DocumentWorkBudget } from './document-work-budget';
import { DEFAULT_DOCX_BUDGET, DocxError, docxSections } from './docx-text';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const p = (text: string, style?: string) =>
  `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ''}<w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
const blocksOf = (sections: { text: string }[]) => sections.flatMap((s) => s.text.split('\n\n'));

/** A document with parts besides the body (styles, notes), as Word writes them. */
async function docxWithParts(parts: Record<string, string>): Promise<Uint8Array> {
  const zip = new JSZip();
  for (const [name, xml] of Object.entries(parts)) zip.file(name, xml);
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

const STYLES = `<?xml version="1.0"?><w:styles xmlns:w="${W}">
  <w:style w:type="paragraph" w:styleId="1"><w:name w:val="heading 1"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>
  <w:style w:type="paragraph" w:styleId="a5"><w:name w:val="标题 2"/></w:style>
  <w:style w:type="paragraph" w:styleId="Chapter"><w:name w:val="Chapter"/><w:basedOn w:val="1"/></w:style>
  <w:style w:type="paragraph" w:styleId="Level3"><w:name w:val="Level 3"/><w:pPr><w:outlineLvl w:val="2"/></w:pPr></w:style>
  <w:style w:type="paragraph" w:styleId="4"><w:name w:val="heading 4"/></w:style>
  <w:style w:type="paragraph" w:styleId="Loop"><w:name w:val="Loop"/><w:basedOn w:val="Loop"/></w:style>
</w:styles>`;

describe('a Word document read as a stream', () => {
  it('starts sections at headings named in styles.xml, in any language, inherited or by outline level', async () => {
    const bytes = await docxWithParts({
      'word/styles.xml': STYLES,
      'word/document.xml': `<w:document xmlns:w="${W}"><w:body>${[
        p('序言'),
        p('第一章 总则', '1'),
        p('第一条 内容'),
        p('一、 要求', 'a5'),
        p('具体要求'),
        p('第二章 附则', 'Chapter'),
        p('小节', 'Level3'),
        p('第四级标题', '4'),
        p('循环样式', 'Loop'),
        `<w:p><w:pPr><w:outlineLvl w:val="1"/></w:pPr><w:r><w:t>直接大纲级别</w:t></w:r></w:p>`,
      ].join('')}</w:body></w:document>`,
    });
    expect(await docxSections(bytes)).toEqual([
      { label: null, text: '序言' },
      { label: '第一章 总则', text: '第一章 总则\n\n第一条 内容' },
      { label: '第一章 总则 › 一、 要求', text: '一、 要求\n\n具体要求' },
      { label: '第二章 附则', text: '第二章 附则' },
      // A level-3 heading right under a level-1 one: the path has no empty part.
      { label: '第二章 附则 › 小节', text: '小节\n\n第四级标题\n\n循环样式' },
      { label: '第二章 附则 › 直接大纲级别', text: '直接大纲级别' },
    ]);
  });

  it('knows Heading1… style ids without styles.xml, in the strict namespace and under any prefix', async () => {
    const strict = 'http://purl.oclc.org/ooxml/wordprocessingml/main';
    const bytes = await docxWithParts({
      'word/document.xml': `<x:document xmlns:x="${strict}"><x:body><x:p><x:pPr><x:pStyle x:val="Heading2"/></x:pPr><x:r><x:t>Scope</x:t></x:r></x:p><x:p><x:r><x:t>Body</x:t></x:r></x:p></x:body></x:document>`,
    });
    expect(await docxSections(bytes)).toEqual([{ label: 'Scope', text: 'Scope\n\nBody' }]);
  });

  it('reads table cells, line breaks and tabs as a reader sees them', async () => {
    const bytes = await docxWithBody(
      `<w:tbl><w:tblPr><w:tblStyle w:val="x"/></w:tblPr><w:tr><w:tc>${p('名称')}</w:tc><w:tc>${p('金额')}</w:tc></w:tr></w:tbl>` +
        `<w:p><w:r><w:t>第一行</w:t><w:br/><w:t>第二行</w:t><w:tab/><w:t>列</w:t></w:r></w:p>` +
        `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Two</w:t><w:br/><w:t>lines</w:t></w:r></w:p>`,
    );
    expect(blocksOf(await docxSections(bytes))).toEqual([
      '| 名称 | 金额 |\n| --- | --- |',
      '第一行',
      '第二行 列',
      'Two lines',
    ]);
  });

  it('leaves out deleted and moved-away revisions, field codes, properties and the newer twin of compatibility content', async () => {
    const bytes = await docxWithBody(
      `<w:p><w:r><w:t>kept </w:t></w:r><w:del><w:r><w:delText>deleted</w:delText></w:r></w:del>` +
        `<w:ins><w:r><w:t>inserted </w:t></w:r></w:ins><w:moveFrom><w:r><w:t>moved away</w:t></w:r></w:moveFrom>` +
        `<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>PAGE</w:instrText></w:r>` +
        `<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>7</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>` +
        `<w:p><w:r><mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006">` +
        `<mc:Choice Requires="wps"><w:drawing><w:txbxContent>${p('文本框')}</w:txbxContent></w:drawing></mc:Choice>` +
        `<mc:Fallback><w:pict><w:txbxContent>${p('文本框')}</w:txbxContent></w:pict></mc:Fallback>` +
        `</mc:AlternateContent><w:t>段落</w:t></w:r></w:p>`,
    );
    expect(blocksOf(await docxSections(bytes))).toEqual(['kept inserted 7', '文本框', '段落']);
  });

  it('reads footnotes and endnotes after the body, without their separators', async () => {
    const notes = (kind: 'footnote' | 'endnote', text: string) =>
      `<w:${kind}s xmlns:w="${W}"><w:${kind} w:type="separator" w:id="-1"><w:p><w:r><w:t>----</w:t></w:r></w:p></w:${kind}><w:${kind} w:id="1">${p(text)}</w:${kind}></w:${kind}s>`;
    const bytes = await docxWithParts({
      'word/document.xml': `<w:document xmlns:w="${W}"><w:body>${p('正文')}</w:body></w:document>`,
      'word/footnotes.xml': notes('footnote', '脚注'),
      'word/endnotes.xml': notes('endnote', '尾注'),
    });
    expect(blocksOf(await docxSections(bytes))).toEqual(['正文', '脚注', '尾注']);
  });

  it('reads a part written in UTF-16', async () => {
    const xml = `<?xml version="1.0" encoding="UTF-16"?><w:document xmlns:w="${W}"><w:body>${p('中文')}</w:body></w:document>`;
    const utf16 = new Uint8Array(2 + xml.length * 2);
    utf16.set([0xff, 0xfe]);
    for (let i = 0; i < xml.length; i++) {
      utf16[2 + 2 * i] = xml.charCodeAt(i) & 0xff;
      utf16[3 + 2 * i] = xml.charCodeAt(i) >> 8;
    }
    const zip = new JSZip();
    zip.file('word/document.xml', utf16);
    const bytes = await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
    expect(blocksOf(await docxSections(bytes))).toEqual(['中文']);
  });

  it('refuses what is not a readable Word document as corrupt, and one without text as no_text', async () => {
    const reasonOf = (bytes: Uint8Array) =>
      docxSections(bytes).then(
        () => 'read',
        (err: unknown) => (err instanceof DocxError ? err.reason : String(err)),
      );
    expect(await reasonOf(new TextEncoder().encode('PK not a zip'))).toBe('corrupt');
    expect(await reasonOf(await docxWithParts({ 'word/other.xml': '<a/>' }))).toBe('corrupt');
    expect(await reasonOf(await docxWithBody('<w:p><w:r><w:t>unclosed</w:r></w:p>'))).toBe(
      'corrupt',
    );
    expect(await reasonOf(await docxWithBody('<w:p><w:r><w:t>&custom;</w:t></w:r></w:p>'))).toBe(
      'corrupt',
    );
    expect(await reasonOf(await docxWithBody('<w:p/><w:p><w:r><w:t> </w:t></w:r></w:p>'))).toBe(
      'no_text',
    );
  });
});

describe('a Word table', () => {
  const tc = (content: string, properties = '') =>
    `<w:tc>${properties ? `<w:tcPr>${properties}</w:tcPr>` : ''}${content}</w:tc>`;
  const tr = (cells: string, header = false) =>
    `<w:tr>${header ? '<w:trPr><w:tblHeader/></w:trPr>' : ''}${cells}</w:tr>`;
  const tbl = (rows: string) =>
    `<w:tbl><w:tblPr><w:tblW w:w="0"/></w:tblPr><w:tblGrid><w:gridCol/><w:gridCol/></w:tblGrid>${rows}</w:tbl>`;

  it('is a Markdown table: the first row its header, a cell’s paragraphs joined, pipes escaped', async () => {
    const bytes = await docxWithBody(
      p('前言') +
        tbl(
          tr(tc(p('名称')) + tc(p('金额（元）'))) +
            tr(tc(p('创业补贴')) + tc(p('5000') + p('一次性'))) +
            tr(
              tc(`<w:p><w:r><w:t>A|B</w:t><w:br/><w:t>二行</w:t></w:r></w:p>`) +
                tc(p('', 'Heading1') + p('标题样式', 'Heading1')),
            ),
        ) +
        p('后记'),
    );
    expect(await docxSections(bytes)).toEqual([
      {
        label: null,
        text: [
          '前言',
          '| 名称 | 金额（元） |\n| --- | --- |\n| 创业补贴 | 5000 一次性 |\n| A\\|B 二行 | 标题样式 |',
          '后记',
        ].join('\n\n'),
      },
    ]);
  });

  it('keeps every row as wide as the grid across merged cells, a title row above the table', async () => {
    const bytes = await docxWithBody(
      tbl(
        tr(tc(p('补贴标准表'), '<w:gridSpan w:val="3"/>')) +
          tr(tc(p('地区')) + tc(p('项目')) + tc(p('金额'))) +
          tr(tc(p('东区'), '<w:vMerge w:val="restart"/>') + tc(p('租房')) + tc(p('100'))) +
          tr(tc(p(''), '<w:vMerge/>') + tc(p('购房')) + tc(p('200'))) +
          tr(
            '<w:trPr><w:gridBefore w:val="1"/></w:trPr>' +
              tc(p('小计'), '<w:gridSpan w:val="1"/>') +
              tc(p('300')),
          ) +
          tr(tc(p('合计'), '<w:gridSpan w:val="2"/>') + tc(p('600'))),
      ),
    );
    expect(blocksOf(await docxSections(bytes))).toEqual([
      '补贴标准表',
      [
        '| 地区 | 项目 | 金额 |',
        '| --- | --- | --- |',
        '| 东区 | 租房 | 100 |',
        '| 东区 | 购房 | 200 |',
        '| | 小计 | 300 |',
        '| 合计 | | 600 |',
      ].join('\n'),
    ]);
  });

  it('reads the rows marked as header rows as one header, a spanned heading over each column', async () => {
    const bytes = await docxWithBody(
      tbl(
        tr(
          tc(p('2023年'), '<w:gridSpan w:val="2"/>') + tc(p('备注'), '<w:vMerge w:val="restart"/>'),
          true,
        ) +
          tr(tc(p('收入')) + tc(p('支出')) + tc(p(''), '<w:vMerge/>'), true) +
          tr(tc(p('10')) + tc(p('8')) + tc(p('无'))),
      ),
    );
    expect(blocksOf(await docxSections(bytes))).toEqual([
      '| 2023年 收入 | 2023年 支出 | 备注 |\n| --- | --- | --- |\n| 10 | 8 | 无 |',
    ]);
  });

  it('flattens a nested table into its cell, and keeps a table with text in one column as paragraphs', async () => {
    const inner = tbl(tr(tc(p('内一')) + tc(p('内二'))) + tr(tc(p('内三')) + tc(p('内四'))));
    const bytes = await docxWithBody(
      tbl(tr(tc(p('外')) + tc(p('前') + inner + p('后')))) +
        tbl(tr(tc(p('通知', 'Heading1') + p('框内正文')) + tc(p(''))) + tr(tc(p('第二行')))),
    );
    expect(await docxSections(bytes)).toEqual([
      { label: null, text: '| 外 | 前 内一 内二 内三 内四 后 |\n| --- | --- |' },
      { label: '通知', text: '通知\n\n框内正文\n\n第二行' },
    ]);
  });

  it('splits a table longer than a section between rows, each part under its header', async () => {
    const row = (i: number) => tr(tc(p(`第${i}项`)) + tc(p('说明'.repeat(40))));
    const rows = Array.from({ length: 60 }, (_, i) => row(i + 1)).join('');
    const sections = await docxSections(
      await docxWithBody(tbl(tr(tc(p('事项')) + tc(p('内容'))) + rows)),
    );
    expect(sections.length).toBeGreaterThan(1);
    for (const section of sections) {
      expect([...section.text].length).toBeLessThanOrEqual(4_000);
      expect(section.text.startsWith('| 事项 | 内容 |\n| --- | --- |\n| 第')).toBe(true);
    }
    const all = sections.flatMap((s) => s.text.split('\n').slice(2));
    expect(all).toHaveLength(60);
    expect(all[59]).toContain('第60项');
  });
});

describe('the work a Word document may cost', () => {
  const small: DocumentWorkBudget = {
    maxElements: 60,
    maxBlocks: 5,
    maxTextChars: 40,
    maxDepth: 8,
  };
  const workOf = (bytes: Uint8Array, maxInflatedBytes = 1 << 20) =>
    docxSections(bytes, { maxInflatedBytes, work: small }).then(
      () => 'read',
      (err: unknown) => (err instanceof DocumentTooComplex ? err.work : String(err)),
    );

  it('stops at the first budget spent: elements, blocks, text, depth, inflated bytes', async () => {
    expect(await workOf(await docxWithBody(p('a').repeat(5)))).toBe('read');
    expect(await workOf(await docxWithBody(`<w:p><w:r>${'<w:b/>'.repeat(60)}</w:r></w:p>`))).toBe(
      'elements',
    );
    expect(await workOf(await docxWithBody(p('a').repeat(6)))).toBe('blocks');
    expect(await workOf(await docxWithBody(p('a'.repeat(41))))).toBe('textChars');
    // Text is charged while a paragraph is still open, not only when it ends.
    expect(await workOf(await docxWithBody(`<w:p><w:r>${'<w:t>aaaaaaaaaa</w:t>'.repeat(5)}`))).toBe(
      'textChars',
    );
    expect(
      await workOf(
        await docxWithBody(
          `${'<w:sdt><w:sdtContent>'.repeat(4)}${p('a')}${'</w:sdtContent></w:sdt>'.repeat(4)}`,
        ),
      ),
    ).toBe('depth');
    expect(await workOf(await docxWithBody(`${p('a')}${' '.repeat(2_000)}`), 1_000)).toBe(
      'inflatedBytes',
    );
  });

  it('charges the text a merged table cell repeats, and bounds the columns a cell can span', async () => {
    const merged = (rows: number) =>
      `<w:tbl><w:tr><w:tc><w:tcPr><w:vMerge w:val="restart"/></w:tcPr>${p('a'.repeat(8))}</w:tc><w:tc>${p('b')}</w:tc></w:tr>` +
      `<w:tr><w:tc><w:tcPr><w:vMerge/></w:tcPr></w:tc><w:tc>${p('c')}</w:tc></w:tr>`.repeat(rows) +
      '</w:tbl>';
    expect(await workOf(await docxWithBody(merged(0)))).toBe('read');
    // A few elements a row, each repeating the eight characters above: the text budget stops it.
    expect(await workOf(await docxWithBody(merged(4)))).toBe('textChars');
    const wide = await docxWithBody(
      `<w:tbl><w:tr><w:tc><w:tcPr><w:gridSpan w:val="2000000000"/></w:tcPr>${p('x')}</w:tc><w:tc>${p('y')}</w:tc></w:tr><w:tr><w:tc>${p('z')}</w:tc></w:tr></w:tbl>`,
    );
    const [table] = blocksOf(await docxSections(wide, DEFAULT_DOCX_BUDGET));
    expect(table?.split('\n')[0]?.split('|')).toHaveLength(66);
  });

  it('the default budget reads a long, richly formatted report', async () => {
    // 3,000 paragraphs of three formatted runs each: about 75 pages, 78,000 elements.
    const run = `<w:r><w:rPr><w:rFonts w:ascii="仿宋"/><w:sz w:val="32"/></w:rPr><w:t>通知要求各地认真贯彻执行</w:t></w:r>`;
    const body = `<w:p><w:pPr><w:jc w:val="both"/></w:pPr>${run.repeat(3)}</w:p>`.repeat(3_000);
    const sections = await docxSections(await docxWithBody(body), DEFAULT_DOCX_BUDGET);
    expect(blocksOf(sections)).toHaveLength(3_000);
    expect(sections.every((s) => [...s.text].length <= 4_000)).toBe(true);
  });
});
