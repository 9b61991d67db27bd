import { describe, expect, it } from 'vitest';
import {
  CHINESE_POLICY_PRINTED,
  CHINESE_POLICY_SPACED,
  ENGLISH_REPORT_PRINTED,
  type PrintedFixture,
} from '../../../../dev/fixtures/printed-fixtures';
import { extractPdfLayout, extractPdfText, pageTexts } from './pdf-text';

const LIMITS = { maxPages: 300 };

/**
 * pdf.js reports the ideographic space after an article number ("第一条\u3000为") as a gap, which
 * cannot be told from the gaps of a justified line; it is the one difference accepted.
 */
const expectedOf = (fixture: PrintedFixture) =>
  fixture.expected.map((page) => page.replaceAll('\u3000', ''));

describe.each([CHINESE_POLICY_PRINTED, CHINESE_POLICY_SPACED, ENGLISH_REPORT_PRINTED])(
  'a printed document: $name',
  (fixture) => {
    it('gives back every page’s paragraphs exactly, without headers, footers or page numbers', async () => {
      const { pages, pageCount } = await extractPdfText(fixture.bytes(), LIMITS);

      expect(pageCount).toBe(fixture.pages.length);
      expect(pages).toEqual(expectedOf(fixture));
    });
  },
);

describe('a printed Chinese policy', () => {
  it('has no line break inside words, no space between characters, full-width digits kept', async () => {
    const { pages } = await extractPdfText(CHINESE_POLICY_PRINTED.bytes(), LIMITS);
    const text = pages.join('\n\n');

    expect(text).not.toMatch(/\p{Script=Han}\n\p{Script=Han}/u);
    expect(text).not.toMatch(/\p{Script=Han} \p{Script=Han}/u);
    expect(text).not.toMatch(/— \d+ —/u);
    expect(text).toContain('累计贴息金额不超过５０００元');
    expect(text).toContain('４７.９亿元');
    expect(text).toContain('推动经济高质量发展');
  });
});

describe('a printed English report', () => {
  it('rejoins words hyphenated at the margin and keeps the real hyphens', async () => {
    const { pages } = await extractPdfText(ENGLISH_REPORT_PRINTED.bytes(), LIMITS);
    const text = pages.join('\n\n');

    expect(text).not.toMatch(/\p{Ll}-?\n\p{Ll}/u);
    expect(text).toContain('pre-pandemic');
    expect(text).not.toMatch(/Page \d+ of \d+/u);
    expect(text).not.toContain('Riverton Council — Annual Report 2024');
  });

  it('reads a two-column page left column first', async () => {
    const { pages } = await extractPdfText(ENGLISH_REPORT_PRINTED.bytes(), LIMITS);
    const page = ENGLISH_REPORT_PRINTED.pages.findIndex((p) => p.columns === 2);
    const blocks = ENGLISH_REPORT_PRINTED.pages[page]?.blocks ?? [];

    const positions = blocks.map((block) => pages[page]?.indexOf(block.text) ?? -1);
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });
});

describe('extractPdfLayout: batches of pages', () => {
  it('gives the same text as the whole document, page numbers kept', async () => {
    const bytes = CHINESE_POLICY_PRINTED.bytes();
    const first = await extractPdfLayout(bytes, { ...LIMITS, pages: { first: 1, last: 2 } });
    const rest = await extractPdfLayout(bytes, {
      ...LIMITS,
      pages: { first: 3, last: 99 },
      alreadyUsed: first.used,
    });

    expect(first.pages.map((page) => page.page)).toEqual([1, 2]);
    expect(rest.pages[0]?.page).toBe(3);
    expect(rest.used.parsedBytes).toBeGreaterThan(first.used.parsedBytes);
    expect(pageTexts([...first.pages, ...rest.pages])).toEqual(
      (await extractPdfText(bytes, LIMITS)).pages,
    );
  });
});
