import { describe, expect, it } from 'vitest';
import { printedLayout } from '../../../../dev/fixtures/pdf-builder';
import {
  CHINESE_POLICY_SPACED,
  ENGLISH_REPORT_PRINTED,
} from '../../../../dev/fixtures/printed-fixtures';
import { ocrPageLayout } from './ocr-layout';
import { pageTexts, pageTextsWithLines } from './page-text';
import { layoutPage, type PageLayout, type TextRun } from './pdf-layout';
import { extractPdfLayout } from './pdf-text';

// Each kept line of a page's text, where it stands in the text and on the page: what the
// document viewer highlights a passage with (viewer/passage-rects.ts).

const squeeze = (text: string) => text.replace(/[\s-]+/gu, '');

describe.each([ENGLISH_REPORT_PRINTED, CHINESE_POLICY_SPACED])(
  'the lines of a printed document: $name',
  (fixture) => {
    it('stand where the printer put them, their spans on the text they became', async () => {
      const { pages } = await extractPdfLayout(fixture.bytes(), { maxPages: 300 });
      const printed = printedLayout(fixture.pages, fixture.options);
      const located = pageTextsWithLines(pages);
      expect(located.map((page) => page.text)).toEqual(pageTexts(pages));
      located.forEach(({ text, lines }, pageIndex) => {
        const page = pages[pageIndex]!;
        expect(lines.length).toBeGreaterThan(0);
        let previousEnd = 0;
        for (const [start, end, left, top, right, bottom] of lines) {
          expect(start).toBeGreaterThanOrEqual(previousEnd);
          previousEnd = end;
          expect(0 <= left && left < right && right <= page.width).toBe(true);
          expect(0 <= top && top < bottom && bottom <= page.height).toBe(true);
          // The glyphs printed on this line, from the printer's own record of the page.
          const onLine = printed.pages[pageIndex]!.filter((placed) => {
            const baseline = printed.pageHeight - placed.baseline;
            return baseline > top && baseline < bottom;
          });
          const printedText = squeeze(onLine.flatMap((p) => p.glyphs.map((g) => g.char)).join(''));
          expect(printedText).toContain(squeeze(text.slice(start, end)));
        }
      });
    });
  },
);

const SIZE = 12;
const run = (x: number, baseline: number, text: string): TextRun => ({
  text,
  x,
  baseline,
  width: text.length * SIZE * 0.5,
  size: SIZE,
});
const PAGE = { page: 1, width: 595, height: 842 };

describe('pageTextsWithLines', () => {
  it('gives a rejoined word to both lines, the hyphen to neither', () => {
    const layout = layoutPage(
      [run(72, 100, 'The council reviews the employ-'), run(72, 114, 'ment of staff.')],
      PAGE,
    );
    const [{ text, lines }] = pageTextsWithLines([layout]) as unknown as [
      { text: string; lines: number[][] },
    ];
    expect(text).toBe('The council reviews the employment of staff.');
    expect(lines.map(([start, end]) => text.slice(start, end))).toEqual([
      'The council reviews the employ',
      'ment of staff.',
    ]);
    expect(lines[0]!.slice(2)).toEqual([72, 100 - 0.9 * SIZE, 72 + 31 * 6, 100 + 0.25 * SIZE]);
  });

  it('keeps an OCR line’s box as read', () => {
    const layout = ocrPageLayout({
      page: 1,
      width: 595,
      height: 842,
      dpi: 200,
      confidence: 0.9,
      lines: [
        { text: '第一条为了规范管理，制定本办法。', confidence: 0.9, box: [72, 100, 400, 120] },
      ],
    });
    expect(pageTextsWithLines([layout])).toEqual([
      { text: '第一条为了规范管理，制定本办法。', lines: [[0, 16, 72, 100, 400, 120]] },
    ]);
  });

  it('places a table’s rows, and not its delimiter row', () => {
    const cells = (baseline: number, a: string, b: string) => [
      run(72, baseline, a),
      run(300, baseline, b),
    ];
    const layout = layoutPage(
      [...cells(100, 'Item', 'Amount'), ...cells(116, 'Rent', '500'), ...cells(132, 'Food', '300')],
      PAGE,
    );
    const [{ text, lines }] = pageTextsWithLines([layout]) as unknown as [
      { text: string; lines: number[][] },
    ];
    expect(text.split('\n')).toHaveLength(4);
    expect(lines.map(([start, end]) => text.slice(start, end))).toEqual([
      '| Item | Amount |',
      '| Rent | 500 |',
      '| Food | 300 |',
    ]);
    expect(lines.map((line) => line[3])).toEqual([100, 116, 132].map((b) => b - 0.9 * SIZE));
  });

  it('reads a layout stored before line boxes: the same text, no lines', () => {
    const layout = layoutPage([run(72, 100, 'Refunds are paid within 45 days.')], PAGE);
    const old: PageLayout = { ...layout, blocks: layout.blocks.map(({ boxes: _, ...b }) => b) };
    expect(pageTextsWithLines([old])).toEqual([
      { text: 'Refunds are paid within 45 days.', lines: [] },
    ]);
  });
});
