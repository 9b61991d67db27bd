/**
 * Running headers, footers and page numbers: the document-level decision about which header and
 * footer candidates (blocks with a `band`, see pdf-layout.ts) to drop. It needs every page's
 * candidates, so it runs once over the whole document, also when the pages were extracted in
 * batches.
 *
 * A candidate is dropped when it has the shape of a page number ("— 3 —", "-3-", "3", "第3页",
 * "第三页", "Page 3", "3/20", "Page 3 of 20", "iv"), or when the same text, digits aside,
 * stands in the same band on a large share of the pages (a running title, "Annual report
 * 2024 | 3").
 */
import type { PageLayout } from './pdf-layout.ts';

/** A candidate repeated on at least this share of the pages (and on two pages at least). */
const REPEATED_SHARE = 0.4;

const PAGE_NUMBER_SHAPES: readonly RegExp[] = [
  /^[-–—―－~·•]*\d{1,4}[-–—―－~·•]*$/u,
  /^(?:共\d+页)?第\d+页(?:共\d+页)?$/u,
  /^第[〇零一二三四五六七八九十百]+页$/u,
  /^(?:page|p\.?)\d+(?:of\d+)?$/iu,
  /^\d+(?:\/|of)\d+$/iu,
];

/** Lower-case roman numerals 1–39, as front matter is numbered ("iv"); upper case is a word. */
const ROMAN_PAGE_NUMBER = /^(?=[ivx])x{0,3}(?:ix|iv|v?i{0,3})$/u;

/** `blocksToDrop[i]` holds the indexes of page `pages[i]`'s blocks that are page furniture. */
export function findPageFurniture(pages: readonly PageLayout[]): Set<number>[] {
  const pagesWithKey = new Map<string, Set<number>>();
  pages.forEach((page, pageIndex) => {
    for (const block of page.blocks) {
      if (block.band === undefined) continue;
      const key = `${block.band}:${furnitureKey(block.lines.join(' '))}`;
      const seen = pagesWithKey.get(key) ?? new Set<number>();
      seen.add(pageIndex);
      pagesWithKey.set(key, seen);
    }
  });
  const repeatedOn = Math.max(2, Math.ceil(REPEATED_SHARE * pages.length));
  return pages.map((page) => {
    const drop = new Set<number>();
    page.blocks.forEach((block, blockIndex) => {
      if (block.band === undefined) return;
      const text = block.lines.join(' ');
      const key = `${block.band}:${furnitureKey(text)}`;
      if (isPageNumber(text) || (pagesWithKey.get(key)?.size ?? 0) >= repeatedOn) {
        drop.add(blockIndex);
      }
    });
    return drop;
  });
}

export function isPageNumber(text: string): boolean {
  const compact = text.normalize('NFKC').replace(/\s+/gu, '');
  if (ROMAN_PAGE_NUMBER.test(compact)) return true;
  const folded = compact.toLowerCase();
  return folded !== '' && PAGE_NUMBER_SHAPES.some((shape) => shape.test(folded));
}

/** The text with its numbers masked, so "Report 2024 | 3" and "Report 2024 | 4" compare equal. */
function furnitureKey(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/gu, '')
    .replace(/\d+|[〇零一二三四五六七八九十百]+(?=页)/gu, '#');
}
