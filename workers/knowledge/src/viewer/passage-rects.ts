/**
 * The rectangles a document viewer highlights for a passage: one per line of the page that the
 * passage touches (file_pages.lines), in the page's reading order. A line the passage covers
 * only in part is cut across in proportion to its characters: a line's box is all that is
 * stored, not where each glyph stands. That is exact enough for CJK text, whose characters
 * are all one em wide, and an approximation for Latin text (an "m" is wider than an "i"): the
 * cut may land a character or two off.
 */
import type { PageLine } from '../db/schema';

/** [left, top, right, bottom] in points from the page's top-left corner, y down. */
export type PageRect = [left: number, top: number, right: number, bottom: number];

/** The passage at [start, end) (UTF-16 offsets into the page's text) as rectangles. */
export function passageRects(lines: readonly PageLine[], start: number, end: number): PageRect[] {
  const rects: PageRect[] = [];
  if (!(end > start)) return rects;
  for (const [lineStart, lineEnd, left, top, right, bottom] of lines) {
    const from = Math.max(start, lineStart);
    const to = Math.min(end, lineEnd);
    if (to <= from || lineEnd <= lineStart) continue;
    const width = right - left;
    const at = (offset: number) =>
      round(left + (width * (offset - lineStart)) / (lineEnd - lineStart));
    rects.push([at(from), top, at(to), bottom]);
  }
  return rects;
}

const round = (value: number) => Math.round(value * 100) / 100;
