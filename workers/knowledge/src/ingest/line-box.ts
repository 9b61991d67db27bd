/**
 * Where a line of text stands on its page: the box a document viewer highlights. Text runs
 * (pdf-layout.ts) give a baseline and a font size, not the ink's extent, so a run's box is
 * estimated from them: from 0.9 em above the baseline to 0.25 em below it. A CJK glyph fills
 * its em square from about 0.88 em above the baseline to 0.12 em below, and Latin ascenders and
 * descenders stay within 0.8 and 0.25 em, so the box covers both scripts; at the usual line
 * spacing (1.2 em or more) the boxes of two lines do not overlap. A run whose ink is known (an
 * OCR line box) keeps that box instead.
 */
import type { TextRun } from './pdf-layout.ts';

/** [left, top, right, bottom] in points from the page's top-left corner, y down. */
export type LineBox = [left: number, top: number, right: number, bottom: number];

const ASCENT = 0.9;
const DESCENT = 0.25;

export function runBox(run: TextRun): LineBox {
  return [
    run.x,
    run.top ?? run.baseline - ASCENT * run.size,
    run.x + run.width,
    run.bottom ?? run.baseline + DESCENT * run.size,
  ];
}

/**
 * The union of the runs' boxes, to hundredths of a point (layouts are stored between steps:
 * no need for seventeen digits); undefined without runs.
 */
export function runsBox(runs: readonly TextRun[]): LineBox | undefined {
  let box: LineBox | undefined;
  for (const run of runs) {
    const next = runBox(run);
    box = box === undefined ? next : unionBox(box, next);
  }
  return box && [round(box[0]), round(box[1]), round(box[2]), round(box[3])];
}

const round = (value: number) => Math.round(value * 100) / 100;

export function unionBox(a: LineBox, b: LineBox): LineBox {
  return [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];
}
