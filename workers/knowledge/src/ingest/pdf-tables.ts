/**
 * Tables on a page, found from where its text stands (pdf-layout.ts hands over the body's lines
 * of text runs, whether from a PDF's text layer or OCR line boxes): consecutive lines whose runs
 * fall into the same two or more columns, with a channel of white space between every two
 * columns that no line's text crosses, and gaps across it much wider than a word space. Such a
 * region becomes a Markdown table (markdown-table.ts), its first row the header.
 *
 * It errs on the side of running text: a page whose text is not a table must read as before.
 * So a region is a table only if it has at least MIN_ROWS rows and
 * - its cells are not mostly single characters (a justified Chinese line spreads its characters
 *   apart, and so does a short title),
 * - its first column is not list markers ("1.", "（一）", "第三条" with a hanging text beside),
 * - the gaps across each channel are, typically, at least CELL_GAP wide (a river of word
 *   spaces running down a justified paragraph is narrower),
 * - no line has long text (LONG_CELL) in two columns (two columns of prose are a two-column
 *   page), and a column of mostly long text does not go on above or below the region in the
 *   same place (a page column beside a table).
 *
 * A line with text in one column only, close under the line before and aligned with its text
 * in that column, continues that row (a cell's text wrapped); any other line that keeps to the
 * channels is a row of its own. The work is linear in the lines: a rejected region is not
 * searched again.
 */
import { isCjk, removeCjkSpacing } from './cjk-spacing.ts';
import { markdownTable } from './markdown-table.ts';
import { runsBox, type LineBox } from './line-box.ts';
import type { TextRun } from './pdf-layout.ts';

/** A table among a page's lines: the lines it takes (`first` to `last`) and its Markdown. */
export interface FoundTable {
  first: number;
  last: number;
  /** Header row, delimiter row, body rows. */
  lines: string[];
}

// Distances in em (the font size of the region's text).
/**
 * A gap this wide between runs may part two cells; across a channel, typically at least this.
 * Word pads a cell 0.19 cm on each side, about an em of 10.5 pt type between two cells' text;
 * pdf.js itself keeps gaps up to 0.6 em inside one text item, as word spaces.
 */
const CELL_GAP = 0.8;
/** The white strip between two columns is at least this wide on every line. */
const MIN_CHANNEL = 0.5;
/** Consecutive lines of one table are at most this far apart (baseline to baseline). */
const MAX_LINE_GAP = 3.5;
/** A cell's wrapped line is at most this far under the line before. */
const WRAP_GAP = 2;
/** Texts whose left ends, centres or right ends are this close are aligned. */
const ALIGNED = 0.6;
/** A gap between runs wider than this is a word space (as pdf-layout.ts has it). */
const WORD_GAP = 0.15;

/** A line of more cells is no table's row (Word's tables have 63 columns at most); it also
 * bounds the work of following the channels down the page. */
const MAX_COLUMNS = 64;
/** A region with fewer rows is not taken for a table. */
const MIN_ROWS = 3;
/** Text this wide or wider in a cell is a line of prose (a page column is some 25 em wide). */
const LONG_CELL = 12;
/** Regions where more than this share of cells are one character are spread text. */
const SINGLE_CHAR_SHARE = 0.6;

/** "1." "2)" "(3)" "（一）" "一、" "①" "•" "第三条" "a.": what starts a list item. */
const LIST_MARKER =
  /^(?:[（(]?(?:\d{1,3}|[一二三四五六七八九十百]+|[a-zA-Z])[)）.．、]|[\u2460-\u2473\u2776-\u277f]|[•·●○■□◆◇▪▫\-–—*]|第[一二三四五六七八九十百零〇\d]+[条章节款项部分编])$/u;

interface Channel {
  left: number;
  right: number;
}

/** One line's text by column. */
interface LineCells {
  baseline: number;
  /** Text of each column ('' where the line has none). */
  texts: string[];
  /** Left and right ends of the text in each column. */
  lefts: number[];
  rights: number[];
}

/** The tables among `lines` (runs grouped by baseline, top to bottom, each left to right). */
export function detectTables(lines: readonly (readonly TextRun[])[]): FoundTable[] {
  return detectTablesWithBoxes(lines).map(({ boxes: _boxes, ...table }) => table);
}

/**
 * A table as detectTables finds it, with where each of its Markdown lines stands: a row's box
 * is the union of the runs it was made from (a row wrapped over several printed lines takes
 * them all); the delimiter row, which is not printed, has none.
 */
export interface BoxedTable extends FoundTable {
  boxes: (LineBox | null)[];
}

/** detectTables, with each Markdown line's box (for the document viewer, pdf-layout.ts). */
export function detectTablesWithBoxes(lines: readonly (readonly TextRun[])[]): BoxedTable[] {
  const tables: BoxedTable[] = [];
  let index = 0;
  while (index < lines.length) {
    const region = growRegion(lines, index);
    if (region === undefined) {
      index++;
      continue;
    }
    const after = tables[tables.length - 1]?.last ?? -1;
    const table = tableOf(region, lines, headerAbove(region, lines, after));
    if (table !== undefined) tables.push(table);
    index = region.last + 1;
  }
  return tables;
}

interface Region {
  first: number;
  last: number;
  em: number;
  channels: Channel[];
  cells: LineCells[];
}

/**
 * The lines from `first` on that keep to the channels of line `first`: the white strips
 * between its cells, narrowed by every line that joins. Undefined when line `first` has no two
 * cells to start from.
 */
function growRegion(lines: readonly (readonly TextRun[])[], first: number): Region | undefined {
  const start = lines[first] ?? [];
  const em = median(start.map((run) => run.size));
  const groups = cellGroups(start, em);
  if (
    groups.length < 2 ||
    groups.length > MAX_COLUMNS ||
    !groups.some((group) => [...runsText(group)].length >= 2)
  ) {
    return undefined;
  }
  let channels: Channel[] = [];
  for (let index = 1; index < groups.length; index++) {
    const before = groups[index - 1] ?? [];
    channels.push({ left: rightOf(before), right: groups[index]?.[0]?.x ?? 0 });
  }
  const cells = [cellsOf(start, channels)];
  let last = first;
  for (let index = first + 1; index < lines.length; index++) {
    const runs = lines[index] ?? [];
    const previous = cells[cells.length - 1]!;
    const gap = baselineOf(runs) - previous.baseline;
    if (gap <= 0 || gap > MAX_LINE_GAP * em) break;
    const narrowed = narrow(channels, runs, em);
    if (narrowed === undefined) break;
    const line = cellsOf(runs, narrowed);
    if (filled(line) < 2 && !wraps(line, previous, em)) break;
    channels = narrowed;
    cells.push(line);
    last = index;
  }
  return { first, last, em, channels, cells };
}

/** The table a region makes, or undefined when it does not pass for one (see the top). */
function tableOf(
  region: Region,
  lines: readonly (readonly TextRun[])[],
  header?: string[],
): BoxedTable | undefined {
  const { cells, em } = region;
  const rows: string[][] = [];
  // The printed lines each row was made from (cells[i] is lines[region.first + i]).
  const rowRuns: TextRun[][] = [];
  cells.forEach((line, index) => {
    const row = rows[rows.length - 1];
    const runs = lines[region.first + index] ?? [];
    if (row !== undefined && index > 0 && filled(line) < 2) {
      line.texts.forEach((text, column) => {
        if (text) row[column] = joinWrapped(row[column] ?? '', text);
      });
      rowRuns[rowRuns.length - 1]?.push(...runs);
    } else {
      rows.push([...line.texts]);
      rowRuns.push([...runs]);
    }
  });
  const rowBoxes = rowRuns.map((runs) => runsBox(runs) ?? null);
  if (rows.length < MIN_ROWS) return undefined;
  const texts = rows.flat().filter((text) => text !== '');
  const single = texts.filter((text) => [...text].length === 1).length;
  if (single > SINGLE_CHAR_SHARE * texts.length) return undefined;
  const firstColumn = rows.map((row) => row[0] ?? '').filter((text) => text !== '');
  if (firstColumn.every((text) => LIST_MARKER.test(text))) return undefined;
  if (!region.channels.every((_, channel) => typicalGap(cells, channel) >= CELL_GAP * em)) {
    return undefined;
  }
  const long = (line: LineCells, column: number) =>
    line.texts[column] !== '' &&
    (line.rights[column] ?? 0) - (line.lefts[column] ?? 0) >= LONG_CELL * em;
  if (cells.some((line) => line.texts.filter((_, column) => long(line, column)).length > 1)) {
    return undefined;
  }
  const prose = proseColumn(cells, long);
  if (prose !== undefined && goesOnOutside(region, prose, lines)) return undefined;
  if (header !== undefined) {
    return {
      first: region.first - 1,
      last: region.last,
      lines: markdownTable(header, rows),
      boxes: [runsBox(lines[region.first - 1] ?? []) ?? null, null, ...rowBoxes],
    };
  }
  return {
    first: region.first,
    last: region.last,
    lines: markdownTable(rows[0] ?? [], rows.slice(1)),
    boxes: [rowBoxes[0] ?? null, null, ...rowBoxes.slice(1)],
  };
}

/**
 * The header row standing just above a region, when the channels do not reach it: header
 * cells are often centred over left-aligned columns (ruled tables, and most scans of them), so
 * the white strips between them barely overlap the body's. The line is taken when it has one
 * short cell per column, each centred within its column, close above the first row, and is
 * not already part of the table before (`after`: that table's last line).
 */
function headerAbove(
  region: Region,
  lines: readonly (readonly TextRun[])[],
  after: number,
): string[] | undefined {
  const index = region.first - 1;
  if (index < 0 || index <= after) return undefined;
  const runs = lines[index] ?? [];
  const { em, channels } = region;
  const gap = (region.cells[0]?.baseline ?? 0) - baselineOf(runs);
  if (gap <= 0 || gap > MAX_LINE_GAP * em) return undefined;
  const groups = cellGroups(runs, em);
  if (groups.length !== channels.length + 1) return undefined;
  // Column i lies between the middles of the channels on either side of it.
  const bounds = channels.map((channel) => (channel.left + channel.right) / 2);
  const fits = groups.every((group, column) => {
    const left = group[0]?.x ?? 0;
    const right = rightOf(group);
    const centre = (left + right) / 2;
    return (
      right - left < LONG_CELL * em &&
      (column === 0 || centre > (bounds[column - 1] ?? Infinity)) &&
      (column === groups.length - 1 || centre < (bounds[column] ?? -Infinity))
    );
  });
  return fits ? groups.map(runsText) : undefined;
}

// ---------------------------------------------------------------------------------------------
// Cells and channels

/** The line's runs grouped into cells: runs closer than CELL_GAP belong together. */
function cellGroups(runs: readonly TextRun[], em: number): TextRun[][] {
  const groups: TextRun[][] = [];
  for (const run of runs) {
    const group = groups[groups.length - 1];
    if (group !== undefined && run.x - rightOf(group) < CELL_GAP * em) group.push(run);
    else groups.push([run]);
  }
  return groups;
}

/** The channels narrowed to what the line leaves white, or undefined if one gets too narrow. */
function narrow(
  channels: readonly Channel[],
  runs: readonly TextRun[],
  em: number,
): Channel[] | undefined {
  const narrowed: Channel[] = [];
  for (const channel of channels) {
    // The widest white piece of the channel between the line's runs.
    let best: Channel | undefined;
    let left = channel.left;
    const consider = (right: number) => {
      if (right - left > (best === undefined ? 0 : best.right - best.left)) {
        best = { left, right };
      }
    };
    for (const run of runs) {
      const runRight = run.x + run.width;
      if (runRight <= left || run.x >= channel.right) continue;
      consider(Math.min(run.x, channel.right));
      left = Math.max(left, runRight);
    }
    consider(channel.right);
    if (best === undefined || best.right - best.left < MIN_CHANNEL * em) return undefined;
    narrowed.push(best);
  }
  return narrowed;
}

/** The line's text by column: a run's column is the number of channels left of it. */
function cellsOf(runs: readonly TextRun[], channels: readonly Channel[]): LineCells {
  const byColumn: TextRun[][] = Array.from({ length: channels.length + 1 }, () => []);
  for (const run of runs) {
    const column = channels.filter((channel) => channel.right <= run.x).length;
    byColumn[column]?.push(run);
  }
  return {
    baseline: baselineOf(runs),
    texts: byColumn.map(runsText),
    lefts: byColumn.map((group) => group[0]?.x ?? 0),
    rights: byColumn.map((group) => (group.length > 0 ? rightOf(group) : 0)),
  };
}

function filled(line: LineCells): number {
  return line.texts.filter((text) => text !== '').length;
}

/**
 * A line with text in one column that wraps the cell above it: close under the line before,
 * which has text in that column too, left-, centre- or right-aligned with it.
 */
function wraps(line: LineCells, previous: LineCells, em: number): boolean {
  const column = line.texts.findIndex((text) => text !== '');
  if (column < 0 || !previous.texts[column]) return false;
  if (line.baseline - previous.baseline > WRAP_GAP * em) return false;
  const left = line.lefts[column] ?? 0;
  const right = line.rights[column] ?? 0;
  const previousLeft = previous.lefts[column] ?? 0;
  const previousRight = previous.rights[column] ?? 0;
  const close = (a: number, b: number) => Math.abs(a - b) <= ALIGNED * em;
  return (
    close(left, previousLeft) ||
    close(right, previousRight) ||
    close(left + right, previousLeft + previousRight)
  );
}

/** The median gap across a channel, over the lines with text on both sides of it. */
function typicalGap(cells: readonly LineCells[], channel: number): number {
  const gaps: number[] = [];
  for (const line of cells) {
    if (line.texts[channel] && line.texts[channel + 1]) {
      gaps.push((line.lefts[channel + 1] ?? 0) - (line.rights[channel] ?? 0));
    }
  }
  return gaps.length > 0 ? median(gaps) : Infinity;
}

/** The first column where at least half the lines' texts are long, if any. */
function proseColumn(
  cells: readonly LineCells[],
  long: (line: LineCells, column: number) => boolean,
): number | undefined {
  const columns = cells[0]?.texts.length ?? 0;
  for (let column = 0; column < columns; column++) {
    const lines = cells.filter((line) => line.texts[column] !== '');
    const longLines = lines.filter((line) => long(line, column)).length;
    if (lines.length > 0 && longLines * 2 >= lines.length) return column;
  }
  return undefined;
}

/**
 * Whether the line just above or just below the region has text where the prose column's text
 * starts, crossing neither channel beside it: a column of the page going on past the region.
 */
function goesOnOutside(
  region: Region,
  column: number,
  lines: readonly (readonly TextRun[])[],
): boolean {
  const { channels, cells, em } = region;
  const lefts = cells.filter((line) => line.texts[column]).map((line) => line.lefts[column] ?? 0);
  const columnLeft = Math.min(...lefts);
  const from = channels[column - 1]?.right ?? -Infinity;
  const to = channels[column]?.left ?? Infinity;
  const edges = [
    [region.first - 1, cells[0]?.baseline ?? 0],
    [region.last + 1, cells[cells.length - 1]?.baseline ?? 0],
  ] as const;
  return edges.some(([index, baseline]) => {
    const runs = lines[index];
    if (runs === undefined || Math.abs(baselineOf(runs) - baseline) > MAX_LINE_GAP * em) {
      return false;
    }
    const starts = runs.some((run) => Math.abs(run.x - columnLeft) <= em);
    const crosses = runs.some(
      (run) => (run.x < from && run.x + run.width > from) || (run.x < to && run.x + run.width > to),
    );
    return starts && !crosses;
  });
}

// ---------------------------------------------------------------------------------------------
// Text

/** Runs of one cell as text: a space where they stand a word space apart. */
function runsText(runs: readonly TextRun[]): string {
  let text = '';
  let previous: TextRun | undefined;
  for (const run of runs) {
    if (previous !== undefined) {
      const gap = run.x - (previous.x + previous.width);
      if (gap > WORD_GAP * Math.max(previous.size, run.size)) text += ' ';
    }
    text += run.text;
    previous = run;
  }
  return removeCjkSpacing(text.replace(/\s+/gu, ' ').trim());
}

/** A cell's text and its next wrapped line: no space where either side is CJK. */
function joinWrapped(before: string, after: string): string {
  if (before === '') return after;
  const last = [...before].at(-1);
  return isCjk(last) || isCjk([...after][0]) ? before + after : `${before} ${after}`;
}

function rightOf(runs: readonly TextRun[]): number {
  return runs.reduce((right, run) => Math.max(right, run.x + run.width), -Infinity);
}

function baselineOf(runs: readonly TextRun[]): number {
  return median(runs.map((run) => run.baseline));
}

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
