import { findMarkdownTables } from './markdown-table.ts';

/**
 * Where the Markdown tables of a page's text lie, as the chunker (chunker.ts) needs them: in
 * code-point positions, with the places between rows where a chunk may end or begin, and the
 * header a chunk that begins inside the table repeats.
 */
export interface TablePlace {
  /** Start of the header row. */
  start: number;
  /** End of the last row (before the line break that follows it, if any). */
  end: number;
  /** Where a chunk may end or begin inside the table: before each row but the first, and after the last. */
  cuts: number[];
  /** The header row and the delimiter row, on two lines. */
  head: string;
  /** Code points of `head`. */
  headLength: number;
}

/** The tables of `text`, in order. */
export function tablePlaces(text: string): TablePlace[] {
  if (!text.includes('|')) return [];
  const lines = text.split('\n');
  const tables = findMarkdownTables(lines);
  if (tables.length === 0) return [];
  const starts: number[] = [];
  let position = 0;
  for (const line of lines) {
    starts.push(position);
    position += codePoints(line) + 1;
  }
  return tables.map(({ header, last }) => {
    const head = `${lines[header]}\n${lines[header + 1]}`;
    const end = (starts[last] ?? 0) + codePoints(lines[last] ?? '');
    const cuts: number[] = [];
    for (let row = header + 3; row <= last; row++) cuts.push(starts[row] ?? 0);
    cuts.push(end);
    return { start: starts[header] ?? 0, end, cuts, head, headLength: codePoints(head) };
  });
}

/** The table that `position` lies inside (after its start, at or before its end), if any. */
export function tableAround(
  tables: readonly TablePlace[],
  position: number,
): TablePlace | undefined {
  let low = 0;
  let high = tables.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((tables[middle]?.start ?? 0) < position) low = middle + 1;
    else high = middle;
  }
  const table = tables[low - 1];
  return table !== undefined && position <= table.end ? table : undefined;
}

/** Code points: UTF-16 units less the low surrogates that end a pair. */
function codePoints(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xdc00 && unit <= 0xdfff && i > 0) {
      const before = text.charCodeAt(i - 1);
      if (before >= 0xd800 && before <= 0xdbff) count--;
    }
  }
  return count;
}
