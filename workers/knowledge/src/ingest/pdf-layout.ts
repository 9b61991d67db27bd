/**
 * One page's text runs (positioned pieces of text, as pdf.js reports them) rebuilt into the
 * reading order a person sees: lines from baselines, a two-column page as its left column then
 * its right, and paragraphs from line gaps, first-line indentation and short last lines.
 *
 * A table (pdf-tables.ts) is a block of its own, its lines the rows of a Markdown table.
 *
 * Pure and serialisable: a {@link PageLayout} is plain data, so page-range batches can return it
 * from separate invocations and one document-level step (page-furniture.ts, page-text.ts) can
 * finish the text once every page is known. Lines are kept as printed here; joining them into
 * running text needs the whole document's vocabulary (hyphenation) and happens there.
 */

import { runsBox, type LineBox } from './line-box.ts';
import { detectTablesWithBoxes } from './pdf-tables.ts';

/** A piece of text on one baseline, in display coordinates (points, y growing DOWNWARDS). */
export interface TextRun {
  text: string;
  /** Left end of the run. */
  x: number;
  /** Distance of the baseline from the top of the page. */
  baseline: number;
  /** Advance width of the run. */
  width: number;
  /** Font size (height of the em square). */
  size: number;
  /** Top and bottom of the ink, when known (an OCR line box); else estimated (line-box.ts). */
  top?: number;
  bottom?: number;
}

export interface PageLayout {
  /** 1-based page number. */
  page: number;
  width: number;
  height: number;
  /** Paragraphs and header/footer candidates, in reading order. */
  blocks: LayoutBlock[];
  /** Where the page's text came from (text-source.ts); absent in layouts stored before it. */
  source?: PageTextSource;
}

/**
 * Where a page's text came from: its text layer as is, its text layer with known font-map
 * faults repaired (`repairs` characters), or OCR of the rendered page (`confidence` the
 * recogniser's mean, 0–1). `needsOcr` marks a text layer judged unusable (none, or garbled
 * beyond repair) while it waits for OCR.
 */
export type PageTextSource =
  | { kind: 'text_layer'; needsOcr?: 'no_text' | 'garbled' }
  | { kind: 'repaired'; repairs: number }
  | { kind: 'ocr'; confidence: number };

export interface LayoutBlock {
  /** The block's visual lines, as printed (not yet joined into running text). */
  lines: string[];
  /**
   * Where each of `lines` stands on the page (line-box.ts), parallel to it; null for a line
   * with no ink of its own (a Markdown table's delimiter row). Absent in layouts stored before
   * line boxes were kept. (Typed as arrays, not LineBox tuples: layouts come back from the
   * document reader over RPC, whose types do not keep tuples.)
   */
  boxes?: (number[] | null)[];
  /** The block is a table: its lines are a Markdown table's rows, kept as lines. */
  table?: true;
  /**
   * Set on a line at the top or bottom edge of the page, set apart from the body: a running
   * header, a footer or a page number, unless the document-level check finds it is not.
   */
  band?: 'top' | 'bottom';
}

interface Line {
  text: string;
  box: LineBox;
  left: number;
  right: number;
  baseline: number;
  size: number;
}

/** Share of the page height, from the top and from the bottom, where headers and footers live. */
const BAND_SHARE = 0.12;
/** Baselines closer than this share of the font size are one line. */
const SAME_LINE = 0.4;
/** A gap between runs wider than this share of the font size is a word space. */
const WORD_GAP = 0.15;
/** A line gap this many times the usual one separates paragraphs. */
const PARAGRAPH_GAP = 1.4;
/** Lines whose font sizes differ by more than this share are in different paragraphs. */
const SIZE_CHANGE = 0.1;
/** A line starting this share of the font size right of the column's edge is indented. */
const INDENT = 0.6;
/** At most this many lines at each edge can be header/footer candidates. */
const MAX_BAND_LINES = 3;

export function layoutPage(
  runs: readonly TextRun[],
  page: { page: number; width: number; height: number },
): PageLayout {
  const visible = runs.filter((run) => run.text.trim() !== '' && run.size > 0);
  const rawLines = groupByBaseline(visible);
  const { top, body, bottom } = splitBands(rawLines, page.height);
  const blocks: LayoutBlock[] = [
    ...top.map((line): LayoutBlock => bandBlock(lineOf(line), 'top')),
    ...bodyBlocks(body, page.width),
    ...bottom.map((line): LayoutBlock => bandBlock(lineOf(line), 'bottom')),
  ];
  return { page: page.page, width: page.width, height: page.height, blocks };
}

function bandBlock(line: Line, band: 'top' | 'bottom'): LayoutBlock {
  return { lines: [line.text], boxes: [line.box], band };
}

/** The body's tables (pdf-tables.ts) where they stand, the text between them in paragraphs. */
function bodyBlocks(lines: TextRun[][], pageWidth: number): LayoutBlock[] {
  const blocks: LayoutBlock[] = [];
  const text = (from: number, to: number) =>
    to > from ? columnsInReadingOrder(lines.slice(from, to), pageWidth).flatMap(paragraphs) : [];
  let from = 0;
  for (const table of detectTablesWithBoxes(lines)) {
    blocks.push(...text(from, table.first), {
      lines: table.lines,
      boxes: table.boxes,
      table: true,
    });
    from = table.last + 1;
  }
  blocks.push(...text(from, lines.length));
  return blocks;
}

// ---------------------------------------------------------------------------------------------
// Lines

/** Runs grouped by baseline, top to bottom; each group's runs left to right. */
function groupByBaseline(runs: readonly TextRun[]): TextRun[][] {
  const sorted = [...runs].sort((a, b) => a.baseline - b.baseline || a.x - b.x);
  const lines: TextRun[][] = [];
  let current: TextRun[] = [];
  let baseline = 0;
  let size = 0;
  for (const run of sorted) {
    if (
      current.length > 0 &&
      Math.abs(run.baseline - baseline) <= SAME_LINE * Math.max(size, run.size)
    ) {
      current.push(run);
      size = Math.max(size, run.size);
      continue;
    }
    if (current.length > 0) lines.push(current);
    current = [run];
    baseline = run.baseline;
    size = run.size;
  }
  if (current.length > 0) lines.push(current);
  return lines.map((line) => line.sort((a, b) => a.x - b.x));
}

function lineOf(runs: readonly TextRun[]): Line {
  let text = '';
  let previous: TextRun | undefined;
  for (const run of runs) {
    if (previous !== undefined) {
      const gap = run.x - (previous.x + previous.width);
      const spaced = /\s$/u.test(text) || /^\s/u.test(run.text);
      if (!spaced && gap > WORD_GAP * Math.max(previous.size, run.size)) text += ' ';
    }
    text += run.text;
    previous = run;
  }
  const first = runs[0];
  const last = runs[runs.length - 1];
  return {
    text: text.replace(/\s+/gu, ' ').trim(),
    box: runsBox(runs) ?? [0, 0, 0, 0],
    left: first?.x ?? 0,
    right: runs.reduce((right, run) => Math.max(right, run.x + run.width), last?.x ?? 0),
    baseline: median(runs.map((run) => run.baseline)),
    size: median(runs.map((run) => run.size)),
  };
}

// ---------------------------------------------------------------------------------------------
// Header and footer bands

/**
 * The lines at the top and bottom edges that are set apart from the body by a wider gap than
 * the body's own line spacing. The first body line of a page sits in the band too, but follows
 * on at the usual spacing, so it stays with its paragraph.
 */
function splitBands(
  lines: TextRun[][],
  pageHeight: number,
): { top: TextRun[][]; body: TextRun[][]; bottom: TextRun[][] } {
  const measured = lines.map(lineOf);
  const leading = usualLeading(measured);
  // Headers and footers are set no larger than the text; a title above it is not one.
  const bodySize = median(measured.map((line) => line.size));
  const small = (line: Line) => line.size <= bodySize * (1 + SIZE_CHANGE);
  const topLimit = pageHeight * BAND_SHARE;
  const bottomLimit = pageHeight * (1 - BAND_SHARE);
  let topCount = 0;
  for (let index = 0; index < Math.min(MAX_BAND_LINES, measured.length - 1); index++) {
    const line = measured[index];
    const next = measured[index + 1];
    if (line === undefined || next === undefined || line.baseline > topLimit || !small(line)) break;
    if (next.baseline - line.baseline > PARAGRAPH_GAP * leading(line)) topCount = index + 1;
  }
  let bottomCount = 0;
  for (let index = 0; index < Math.min(MAX_BAND_LINES, measured.length - 1 - topCount); index++) {
    const line = measured[measured.length - 1 - index];
    const previous = measured[measured.length - 2 - index];
    if (
      line === undefined ||
      previous === undefined ||
      line.baseline < bottomLimit ||
      !small(line)
    ) {
      break;
    }
    if (line.baseline - previous.baseline > PARAGRAPH_GAP * leading(line)) bottomCount = index + 1;
  }
  return {
    top: lines.slice(0, topCount),
    body: lines.slice(topCount, lines.length - bottomCount),
    bottom: lines.slice(lines.length - bottomCount),
  };
}

/** The body's usual distance between baselines, or 1.2 em when there is too little to tell. */
function usualLeading(lines: readonly Line[]): (line: Line) => number {
  const gaps: number[] = [];
  for (let index = 1; index < lines.length; index++) {
    const gap = (lines[index]?.baseline ?? 0) - (lines[index - 1]?.baseline ?? 0);
    const size = lines[index]?.size ?? 0;
    if (gap > 0 && gap < 3 * size) gaps.push(gap);
  }
  const usual = gaps.length >= 3 ? median(gaps) : undefined;
  return (line) => Math.max(usual ?? 0, 1.2 * line.size);
}

// ---------------------------------------------------------------------------------------------
// Columns

/**
 * The body as a list of columns to read one after the other. On a page with a gutter (a
 * vertical strip in the middle that lines stay clear of), each run of lines that do not cross
 * it is read as its left column, then its right; a line across the gutter (a title, a wide
 * table) is read where it stands.
 */
function columnsInReadingOrder(lines: TextRun[][], pageWidth: number): Line[][] {
  const gutter = findGutter(lines, pageWidth);
  if (gutter === undefined) return [lines.map(lineOf)];
  const columns: Line[][] = [];
  let left: Line[] = [];
  let right: Line[] = [];
  let spanning: Line[] = [];
  const flushColumns = () => {
    if (left.length > 0) columns.push(left);
    if (right.length > 0) columns.push(right);
    left = [];
    right = [];
  };
  const flushSpanning = () => {
    if (spanning.length > 0) columns.push(spanning);
    spanning = [];
  };
  for (const runs of lines) {
    if (runs.some((run) => crosses(run, gutter))) {
      flushColumns();
      spanning.push(lineOf(runs));
      continue;
    }
    flushSpanning();
    const leftRuns = runs.filter((run) => run.x + run.width <= gutter.from);
    const rightRuns = runs.filter((run) => run.x >= gutter.to);
    if (leftRuns.length > 0) left.push(lineOf(leftRuns));
    if (rightRuns.length > 0) right.push(lineOf(rightRuns));
  }
  flushColumns();
  flushSpanning();
  return columns;
}

interface Gutter {
  from: number;
  to: number;
}

function crosses(run: TextRun, gutter: Gutter): boolean {
  return run.x < gutter.to && run.x + run.width > gutter.from;
}

/**
 * The widest strip in the middle third of the text that at most a few lines cross, with at
 * least three lines on each side of it, or undefined for a one-column page.
 */
function findGutter(lines: TextRun[][], pageWidth: number): Gutter | undefined {
  if (lines.length < 6) return undefined;
  const runs = lines.flat();
  const textLeft = Math.min(...runs.map((run) => run.x));
  const textRight = Math.max(...runs.map((run) => run.x + run.width));
  const span = textRight - textLeft;
  if (span <= 0 || span > pageWidth * 2) return undefined;
  const from = Math.floor(textLeft + span / 3);
  const to = Math.ceil(textLeft + (2 * span) / 3);
  const crossings = new Array<number>(to - from).fill(0);
  for (const line of lines) {
    const covered = new Set<number>();
    for (const run of line) {
      const start = Math.max(from, Math.floor(run.x));
      const end = Math.min(to, Math.ceil(run.x + run.width));
      for (let x = start; x < end; x++) covered.add(x - from);
    }
    for (const x of covered) crossings[x] = (crossings[x] ?? 0) + 1;
  }
  const allowed = Math.max(1, Math.floor(lines.length * 0.1));
  let best: Gutter | undefined;
  let start: number | undefined;
  for (let x = 0; x <= crossings.length; x++) {
    const open = x < crossings.length && (crossings[x] ?? 0) <= allowed;
    if (open && start === undefined) start = x;
    if (!open && start !== undefined) {
      if (best === undefined || x - start > best.to - best.from)
        best = { from: from + start, to: from + x };
      start = undefined;
    }
  }
  const size = median(runs.map((run) => run.size));
  if (best === undefined || best.to - best.from < 0.8 * size) return undefined;
  const gutter = best;
  const sides = lines.filter((line) => !line.some((run) => crosses(run, gutter)));
  const leftLines = sides.filter((line) => line.some((run) => run.x + run.width <= gutter.from));
  const rightLines = sides.filter((line) => line.some((run) => run.x >= gutter.to));
  return leftLines.length >= 3 && rightLines.length >= 3 ? gutter : undefined;
}

// ---------------------------------------------------------------------------------------------
// Paragraphs

/** A column's lines grouped into paragraphs. */
function paragraphs(column: readonly Line[]): LayoutBlock[] {
  if (column.length === 0) return [];
  const left = mostCommon(column.map((line) => Math.round(line.left)));
  const right = percentile(
    column.map((line) => line.right),
    0.9,
  );
  const gaps = column.slice(1).map((line, index) => line.baseline - (column[index]?.baseline ?? 0));
  const bodySize = median(column.map((line) => line.size));
  const leading = median(gaps.filter((gap) => gap > 0)) || 1.2 * bodySize;
  const blocks: LayoutBlock[] = [];
  let lines: string[] = [];
  let boxes: number[][] = [];
  column.forEach((line, index) => {
    const previous = column[index - 1];
    if (
      previous !== undefined &&
      startsParagraph(line, previous, { left, right, leading, bodySize })
    ) {
      blocks.push({ lines, boxes });
      lines = [];
      boxes = [];
    }
    lines.push(line.text);
    boxes.push(line.box);
  });
  if (lines.length > 0) blocks.push({ lines, boxes });
  return blocks;
}

function startsParagraph(
  line: Line,
  previous: Line,
  column: { left: number; right: number; leading: number; bodySize: number },
): boolean {
  const size = Math.max(line.size, previous.size);
  const gap = line.baseline - previous.baseline;
  if (Math.abs(line.size - previous.size) > SIZE_CHANGE * size) return true;
  // Larger type (a title) is set with proportionally wider line spacing.
  const leading = column.leading * Math.max(1, line.size / column.bodySize);
  if (gap > PARAGRAPH_GAP * leading || gap < 0) return true;
  // A title set larger than the text and centred goes on across its lines.
  const centred = Math.abs(line.left - column.left - (column.right - line.right)) < line.size;
  if (centred && line.size > 1.1 * column.bodySize && previous.right >= column.right - size) {
    return false;
  }
  const indented = line.left - column.left > INDENT * line.size;
  const previousIndented = previous.left - column.left > INDENT * previous.size;
  if (indented && !previousIndented) return true;
  // The previous line stopped short although this line's first word would have fitted there.
  const room = column.right - previous.right;
  return room > Math.max(1.5 * size, firstWordWidth(line) + 0.5 * size);
}

/** Width of the line's first word, from the line's average character width. */
function firstWordWidth(line: Line): number {
  const chars = [...line.text];
  const perChar = (line.right - line.left) / Math.max(1, chars.length);
  const word = /^[^\s\p{Script=Han}]*/u.exec(line.text)?.[0] ?? '';
  return perChar * Math.max(1, [...word].length);
}

// ---------------------------------------------------------------------------------------------
// Statistics

function median(values: readonly number[]): number {
  return percentile(values, 0.5);
}

function percentile(values: readonly number[], share: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
}

/** The most frequent value; the smallest of equally frequent ones. */
function mostCommon(values: readonly number[]): number {
  const counts = new Map<number, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  let best = 0;
  let bestCount = 0;
  for (const [value, count] of counts) {
    if (count > bestCount || (count === bestCount && value < best)) {
      best = value;
      bestCount = count;
    }
  }
  return best;
}
