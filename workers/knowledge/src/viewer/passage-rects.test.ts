import { describe, expect, it } from 'vitest';
import type { PageLine } from '../db/schema';
import { passageRects } from './passage-rects';

// Three lines of ten characters each, 100 points wide, the second line indented.
const LINES: PageLine[] = [
  [0, 10, 50, 100, 150, 114],
  [11, 21, 60, 116, 160, 130],
  [23, 33, 50, 140, 150, 154],
];

describe('passageRects', () => {
  it('gives one rectangle per line the passage touches, whole lines whole', () => {
    expect(passageRects(LINES, 0, 33)).toEqual([
      [50, 100, 150, 114],
      [60, 116, 160, 130],
      [50, 140, 150, 154],
    ]);
  });

  it('cuts a partly covered line in proportion to its characters', () => {
    expect(passageRects(LINES, 5, 14)).toEqual([
      [100, 100, 150, 114],
      [60, 116, 90, 130],
    ]);
    expect(passageRects(LINES, 25, 26)).toEqual([[70, 140, 80, 154]]);
  });

  it('leaves out lines the passage only borders, and the gaps between lines', () => {
    expect(passageRects(LINES, 10, 11)).toEqual([]);
    expect(passageRects(LINES, 21, 23)).toEqual([]);
    expect(passageRects(LINES, 10, 12)).toEqual([[60, 116, 70, 130]]);
  });

  it('gives nothing for an empty passage or a page without lines', () => {
    expect(passageRects(LINES, 7, 7)).toEqual([]);
    expect(passageRects([], 0, 100)).toEqual([]);
  });
});
