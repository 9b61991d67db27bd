/**
 * The Markdown pipe tables in a document's text, and where each cell stands in it.
 *
 * The knowledge service gives every table it reads (Word, HTML, PDF, a Markdown upload) as a
 * GFM pipe table in the text it indexes, and cites passages by their offsets into that text.
 * The viewer shows such a table as a table and still marks the cited characters, so it needs
 * more than marked's tokens (the cells' text): each cell's place in the text. marked (the
 * parser the answers go through, ./markdown-html.ts) decides what is a table and what its
 * cells say; here each table is found at its offset, and its cells are located on its lines.
 * A table whose located cells do not read exactly as marked's stays text: never a guess.
 */
import { Marked, Tokenizer, type Tokens } from 'marked';

/** A stretch of the text: UTF-16 offsets, end exclusive. */
export interface Span {
  start: number;
  end: number;
}

export interface TextTable extends Span {
  align: Tokens.Table['align'];
  /** Each cell's text (trimmed, as marked reads it), as many per row as header cells. */
  header: Span[];
  rows: Span[][];
}

/** How much text was left when each table was read: its offset, once the whole is known. */
const leftAt = new WeakMap<Tokens.Table, number>();

const lexer = new Marked({
  gfm: true,
  tokenizer: {
    table(src) {
      const table = Tokenizer.prototype.table.call(this, src);
      if (table) leftAt.set(table, src.length);
      return table ?? false;
    },
  },
});

/** A cell's text as shown: `\|` is how a cell holds a pipe. */
export const cellText = (source: string) => source.replaceAll('\\|', '|');

/** The tables of `text` that stand at the top level (not inside a list or a quote). */
export function findTables(text: string): TextTable[] {
  // marked reads \r\n as \n, and its offsets would no longer be the text's.
  if (!text.includes('|') || text.includes('\r')) return [];
  const tables: TextTable[] = [];
  for (const token of lexer.lexer(text)) {
    if (token.type !== 'table') continue;
    const table = token as Tokens.Table;
    const left = leftAt.get(table);
    if (left === undefined) continue;
    const start = text.length - left;
    if (!text.startsWith(table.raw, start)) continue;
    const placed = place(text, start, table);
    if (placed) tables.push(placed);
  }
  return tables;
}

function place(text: string, start: number, table: Tokens.Table): TextTable | undefined {
  const lines: Span[] = [];
  let at = start;
  for (const line of table.raw.split('\n')) {
    lines.push({ start: at, end: at + line.length });
    at += line.length + 1;
  }
  while (lines.length > 2 && text.slice(lines.at(-1)!.start, lines.at(-1)!.end).trim() === '')
    lines.pop();
  const [head, , ...body] = lines;
  if (!head || body.length !== table.rows.length) return undefined;
  const width = table.header.length;
  const header = cellsOf(text, head, width);
  const rows = body.map((line) => cellsOf(text, line, width));
  const read = [table.header, ...table.rows];
  const same = [header, ...rows].every((row, r) =>
    row.every((cell, c) => cellText(text.slice(cell.start, cell.end)) === read[r]![c]?.text),
  );
  if (!same) return undefined;
  return { start, end: lines.at(-1)!.end, align: table.align, header, rows };
}

/**
 * The cells of one table line, as marked splits it: at each pipe not escaped by a backslash,
 * less an empty cell before the first pipe and after the last, each trimmed; `width` of them
 * (more are dropped, fewer are padded with empty cells at the line's end).
 */
function cellsOf(text: string, line: Span, width: number): Span[] {
  const cells: Span[] = [];
  let from = line.start;
  for (let i = line.start; i < line.end; i++) {
    if (text[i] !== '|') continue;
    let escaped = false;
    for (let j = i - 1; j >= line.start && text[j] === '\\'; j--) escaped = !escaped;
    if (escaped) continue;
    cells.push(trimmed(text, from, i));
    from = i + 1;
  }
  cells.push(trimmed(text, from, line.end));
  if (cells.length > 0 && cells[0]!.start === cells[0]!.end) cells.shift();
  if (cells.length > 0 && cells.at(-1)!.start === cells.at(-1)!.end) cells.pop();
  cells.length = Math.min(cells.length, width);
  while (cells.length < width) cells.push({ start: line.end, end: line.end });
  return cells;
}

/** [from, to) less the white space at either end (what String.prototype.trim takes). */
function trimmed(text: string, from: number, to: number): Span {
  let start = from;
  let end = to;
  while (start < end && /\s/u.test(text[start]!)) start++;
  while (end > start && /\s/u.test(text[end - 1]!)) end--;
  return { start, end };
}
