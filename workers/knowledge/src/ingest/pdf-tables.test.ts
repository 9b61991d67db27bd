import { describe, expect, it } from 'vitest';
import { pdfTextWidth, printedLayout } from '../../../../dev/fixtures/pdf-builder';
import { PRINTED_FIXTURES } from '../../../../dev/fixtures/printed-fixtures';
import { pageTexts } from './page-text';
import { layoutPage, type TextRun } from './pdf-layout';
import { detectTables } from './pdf-tables';
import { extractPdfText } from './pdf-text';

/**
 * Pages built as text runs, the way pdf.js (or the OCR service, one run per line box) reports
 * them: x and baseline in points from the top left. A CJK character is 1 em wide, anything else
 * half an em.
 */
const SIZE = 12;
const PAGE = { page: 1, width: 595, height: 842 };
const widthOf = (text: string, size = SIZE) =>
  [...text].reduce((sum, char) => sum + (/[\u3000-\u9fff\uff00-\uffef]/u.test(char) ? 1 : 0.5), 0) *
  size;
const run = (x: number, baseline: number, text: string, size = SIZE): TextRun => ({
  text,
  x,
  baseline,
  width: widthOf(text, size),
  size,
});
/** One line of cells: [x, text] each, one run a cell. */
const line = (baseline: number, cells: [number, string][]) =>
  cells.map(([x, text]) => run(x, baseline, text));
/** One run a character, as producers that place every glyph write it. */
const glyphs = (x: number, baseline: number, text: string, spacing = 0): TextRun[] => {
  const runs: TextRun[] = [];
  let at = x;
  for (const char of text) {
    runs.push(run(at, baseline, char));
    at += widthOf(char) + spacing;
  }
  return runs;
};
/** The Markdown of a page's tables, as page-text.ts writes a table block. */
const tablesOf = (runs: TextRun[]) =>
  layoutPage(runs, PAGE)
    .blocks.filter((block) => block.table)
    .map((block) => block.lines.join('\n'));
const textOf = (runs: TextRun[]) => pageTexts([layoutPage(runs, PAGE)])[0];

const PROSE = [
  '申请人应当提交身份证明、租房合同和收入证明，拥有自有住房的家庭不得申请住房补',
  '贴；收入发生变化的，应当在三十日内向街道办事处报告。',
];

describe('tables found from where the text stands', () => {
  it('takes a header row centred over left-aligned columns, as ruled tables and their scans set it', () => {
    // The OCR service's boxes of a scanned ruled table: header cells centred, rows left-aligned,
    // the white strips between header cells barely overlapping the rows'.
    const runs = [
      ...line(100, [[72, PROSE[0]!]]),
      ...line(146, [
        [81, '序号'],
        [160, '项目'],
        [267, '补贴标准'],
        [406, '申请条件'],
      ]),
      ...line(171, [
        [95, '1'],
        [123, '一次性创业补贴'],
        [238, '每户5000元'],
        [359, '首次创办小微企业'],
      ]),
      ...line(196, [
        [95, '2'],
        [123, '就业见习补贴'],
        [238, '每人每月1800元'],
        [359, '吸纳高校毕业生'],
      ]),
      ...line(221, [
        [95, '3'],
        [123, '技能提升补贴'],
        [238, '每人1500元'],
        [359, '取得职业资格证书'],
      ]),
    ];
    expect(tablesOf(runs)).toEqual([
      [
        '| 序号 | 项目 | 补贴标准 | 申请条件 |',
        '| --- | --- | --- | --- |',
        '| 1 | 一次性创业补贴 | 每户5000元 | 首次创办小微企业 |',
        '| 2 | 就业见习补贴 | 每人每月1800元 | 吸纳高校毕业生 |',
        '| 3 | 技能提升补贴 | 每人1500元 | 取得职业资格证书 |',
      ].join('\n'),
    ]);
    // Without its rows, the line is a line of text.
    expect(tablesOf(runs.slice(0, 6))).toEqual([]);
  });

  it('reads a table between paragraphs as a Markdown table, its first row the header', () => {
    const runs = [
      ...line(100, [[72, PROSE[0]!]]),
      ...line(118, [[72, PROSE[1]!]]),
      ...line(150, [
        [72, '序号'],
        [130, '补贴项目'],
        [300, '标准（元/月）'],
      ]),
      ...line(170, [
        [72, '1'],
        [130, '住房补贴'],
        [300, '1200'],
      ]),
      ...line(190, [
        [72, '2'],
        [130, '交通补贴 | 含地铁'],
        [300, '300'],
      ]),
      ...line(210, [
        [72, '3'],
        [130, '通讯补贴'],
        [300, '100'],
      ]),
      ...line(240, [[72, '以上标准自2024年1月1日起执行，由各区财政按季度拨付到个人账户。']]),
    ];
    expect(textOf(runs)).toBe(
      [
        PROSE.join(''),
        [
          '| 序号 | 补贴项目 | 标准（元/月） |',
          '| --- | --- | --- |',
          '| 1 | 住房补贴 | 1200 |',
          '| 2 | 交通补贴 \\| 含地铁 | 300 |',
          '| 3 | 通讯补贴 | 100 |',
        ].join('\n'),
        '以上标准自2024年1月1日起执行，由各区财政按季度拨付到个人账户。',
      ].join('\n\n'),
    );
  });

  it('joins a cell’s wrapped lines, keeps empty cells (a first one too) and right-aligned numbers in their columns', () => {
    const right = (baseline: number, text: string) => run(400 - widthOf(text), baseline, text);
    const runs = [
      ...line(100, [
        [72, 'Item'],
        [180, 'Eligible households'],
      ]),
      right(100, 'Amount'),
      ...line(118, [
        [72, 'Rent'],
        [180, 'Tenants of private landlords'],
      ]),
      right(118, '1,200'),
      // The second cell wraps; its second line sits one line under, aligned with it.
      ...line(132, [[180, 'in the Kestrel Ward']]),
      ...line(150, [[72, 'Deposit']]),
      right(150, '800'),
      ...line(168, [
        [72, 'Transport'],
        [180, 'Residents over 65'],
      ]),
      right(168, '45'),
      // Merged down from the row above: its first cell is empty.
      ...line(186, [[180, 'Students']]),
      right(186, '30'),
    ];
    expect(tablesOf(runs)).toEqual([
      [
        '| Item | Eligible households | Amount |',
        '| --- | --- | --- |',
        '| Rent | Tenants of private landlords in the Kestrel Ward | 1,200 |',
        '| Deposit | | 800 |',
        '| Transport | Residents over 65 | 45 |',
        '| | Students | 30 |',
      ].join('\n'),
    ]);
  });

  it('reads a tight table as Word sets one: little more than an em between its columns', () => {
    const size = 10.5;
    const cell = (x: number, baseline: number, text: string) => run(x, baseline, text, size);
    const runs = [
      cell(72, 100, '序号'),
      cell(110, 100, '申请条件'),
      cell(267, 100, '补贴标准'),
      cell(72, 120, '1'),
      // Fourteen characters fill the column; the rest wraps onto the next line.
      cell(110, 120, '在本市连续居住满三年、家庭年'),
      cell(267, 120, '每月1200元'),
      cell(110, 133.65, '收入低于八万元的租房家庭'),
      cell(72, 153, '2'),
      cell(110, 153, '高校毕业生'),
      cell(267, 153, '每月800元'),
    ];
    expect(tablesOf(runs)).toEqual([
      [
        '| 序号 | 申请条件 | 补贴标准 |',
        '| --- | --- | --- |',
        '| 1 | 在本市连续居住满三年、家庭年收入低于八万元的租房家庭 | 每月1200元 |',
        '| 2 | 高校毕业生 | 每月800元 |',
      ].join('\n'),
    ]);
  });

  it('reads cells set one glyph a run, as printed documents place them', () => {
    const runs = [
      ...glyphs(72, 100, '地区'),
      ...glyphs(200, 100, '人数'),
      ...glyphs(72, 120, '东城区'),
      ...glyphs(200, 120, '１２０'),
      ...glyphs(72, 140, '西城区'),
      ...glyphs(200, 140, '９８'),
    ];
    expect(tablesOf(runs)).toEqual([
      '| 地区 | 人数 |\n| --- | --- |\n| 东城区 | １２０ |\n| 西城区 | ９８ |',
    ]);
  });

  it('finds tables in the runs alone, whatever made them', () => {
    const lines = [
      line(100, [
        [72, 'a1'],
        [200, 'b1'],
      ]),
      line(120, [
        [72, 'a2'],
        [200, 'b2'],
      ]),
      line(140, [
        [72, 'a3'],
        [200, 'b3'],
      ]),
    ];
    expect(detectTables(lines)).toEqual([
      { first: 0, last: 2, lines: ['| a1 | b1 |', '| --- | --- |', '| a2 | b2 |', '| a3 | b3 |'] },
    ]);
    expect(detectTables(lines.slice(0, 2))).toEqual([]);
  });
});

/**
 * A one-page PDF (Helvetica, WinAnsi) with each text at its own position: [x, y from the top,
 * text]. pdf.js, not this test, decides which pieces become one text item.
 */
function positionedPdf(texts: [number, number, string][]): Uint8Array {
  const content = texts
    .map(([x, y, text]) => `BT /F1 11 Tf 1 0 0 1 ${x} ${842 - y} Tm (${text}) Tj ET`)
    .join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((object, index) => {
    const offset = pdf.length;
    pdf += `${index + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(pdf);
}

describe('a born-digital PDF with a table', () => {
  it(
    'reads the table from pdf.js text items as a Markdown table between its paragraphs',
    { timeout: 20_000 },
    async () => {
      const cells = [
        ['Permit', 'Fee', 'Valid for'],
        ['Resident parking', '45.00', '12 months'],
        ['Visitor parking', '12.50', '1 month'],
        ['Market stall', '230.00', '6 months'],
      ];
      const bytes = positionedPdf([
        [72, 100, 'Fees are set by the council each April and apply to every ward.'],
        ...cells.flatMap((row, i) =>
          row.map((text, column): [number, number, string] => [
            [72, 220, 320][column]!,
            140 + 18 * i,
            text,
          ]),
        ),
        [72, 240, 'Refunds are paid pro rata for whole months not used.'],
      ]);
      const { pages } = await extractPdfText(bytes, { maxPages: 10 });
      expect(pages).toEqual([
        [
          'Fees are set by the council each April and apply to every ward.',
          [
            '| Permit | Fee | Valid for |',
            '| --- | --- | --- |',
            '| Resident parking | 45.00 | 12 months |',
            '| Visitor parking | 12.50 | 1 month |',
            '| Market stall | 230.00 | 6 months |',
          ].join('\n'),
          'Refunds are paid pro rata for whole months not used.',
        ].join('\n\n'),
      ]);
    },
  );
});

describe('text that is no table', () => {
  it('leaves justified Chinese lines with their characters spread apart as text', () => {
    const spread = '各区人民政府市政府各部门各直属机构经市人民政府同意现将实施';
    const runs = [0, 1, 2, 3, 4].flatMap((i) => glyphs(72, 100 + 20 * i, spread, 0.9 * SIZE));
    expect(tablesOf(runs)).toEqual([]);
    // A title spread over the line, then a short line: no table either.
    const title = [...glyphs(200, 100, '通', 0), ...glyphs(260, 100, '知', 0)];
    expect(tablesOf([...title, ...glyphs(200, 120, '各区'), ...glyphs(260, 120, '县')])).toEqual(
      [],
    );
  });

  it('leaves numbered lists and articles with a hanging text as text', () => {
    const list = [
      ...line(100, [
        [72, '1.'],
        [96, '居民身份证、户口簿或居住证原件及复印件；'],
      ]),
      ...line(118, [[96, '符合贷款对象条件的相关证明材料；']]),
      ...line(136, [
        [72, '2.'],
        [96, '营业执照或其他合法经营证明；'],
      ]),
      ...line(154, [
        [72, '3.'],
        [96, '创业项目计划书。'],
      ]),
    ];
    expect(tablesOf(list)).toEqual([]);
    const articles = [
      ...line(100, [
        [96, '第二十条'],
        [156, '本办法由市人力资源社会保障局负责解释。'],
      ]),
      ...line(120, [
        [96, '第二十一条'],
        [168, '各区可以结合实际制定实施细则。'],
      ]),
      ...line(140, [
        [96, '第二十二条'],
        [168, '本办法自2024年3月1日起施行。'],
      ]),
    ];
    expect(tablesOf(articles)).toEqual([]);
  });

  it('leaves a two-column page as its columns, and a table beside a page column alone', () => {
    const left = [
      'The housing options team prevented homelessness',
      'in 1,284 cases, mainly through negotiation with',
      'private landlords and through the well-known',
      'deposit guarantee scheme. The number of house-',
      'holds in temporary accommodation nevertheless',
      'reached 312 in December, the highest figure.',
    ];
    const right = [
      'Council tax collection reached 97.1 percent, the',
      'best result in a decade, while business rates',
      'collection recovered to its pre-pandemic level',
      'of 98.4 percent. Arrears fell by a fifth over',
      'the year after the new payment plans were',
      'introduced for households in difficulty.',
    ];
    const columns = left.flatMap((text, i) => [
      run(56, 100 + 14 * i, text, 10),
      run(310, 100 + 14 * i, right[i]!, 10),
    ]);
    expect(tablesOf(columns)).toEqual([]);
    expect(textOf(columns)).toBe(
      `${left.join(' ')}\n\n${right.join(' ')}`.replace('house- holds', 'households'),
    );
    // A small table in the left column, the right column's prose beside it: no table is
    // better than one of the page's two columns.
    const ward = ['Ward', 'Kestrel', 'Marrow', 'Tessaly'];
    const cases = ['Cases', '412', '388', '484'];
    const beside = [
      ...right.map((text, i) => run(310, 100 + 14 * i, text, 10)),
      run(56, 100, left[0]!, 10),
      ...[1, 2, 3, 4].flatMap((i) => [
        run(56, 100 + 14 * i, ward[i - 1]!, 10),
        run(180, 100 + 14 * i, cases[i - 1]!, 10),
      ]),
      run(56, 170, left[5]!, 10),
    ];
    expect(tablesOf(beside)).toEqual([]);
    // With no text above it in its column, the table is still not joined to the page column.
    expect(tablesOf(beside.filter((r) => r.text !== left[0]))).toEqual([]);
    expect(tablesOf(beside)).toEqual([]);
  });

  it('finds no table on any page of the printed fixtures', () => {
    for (const fixture of PRINTED_FIXTURES) {
      const layout = printedLayout(fixture.pages, fixture.options);
      layout.pages.forEach((placed, page) => {
        const runs = placed.flatMap((text) =>
          text.glyphs.map((glyph) => ({
            text: glyph.char,
            x: glyph.x,
            baseline: layout.pageHeight - text.baseline,
            width: pdfTextWidth(glyph.char, text.size),
            size: text.size,
          })),
        );
        const blocks = layoutPage(runs, {
          page: page + 1,
          width: layout.pageWidth,
          height: layout.pageHeight,
        }).blocks;
        expect(
          blocks.filter((block) => block.table),
          `${fixture.name} page ${page + 1}`,
        ).toEqual([]);
      });
    }
  });
});
