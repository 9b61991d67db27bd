import type { DocumentWorkMeter } from './document-work-budget';
import { markdownTable } from './markdown-table';

/**
 * A Word or HTML table's cells placed on a grid as its reader meets them, row by row, then
 * written as a Markdown table (markdown-table.ts).
 *
 * Merged cells keep every row as wide as the grid. A cell merged down (HTML `rowspan`, Word
 * `vMerge`) repeats its text in each row it covers, so a row read alone (a chunk may hold only
 * some rows) still says what it belongs to. A cell merged across (`colspan`, `gridSpan`)
 * repeats its text in the header, where a two-level header then reads "2023 Income", and
 * leaves the columns it covers empty in the body. Every character placed, repeats included, is
 * charged to the document's meter as it is placed, and a row is at most MAX_TABLE_COLUMNS
 * wide, so a hostile span cannot make the table cost more than its elements and text allow.
 */

/** Word's own limit is 63 columns; a wider row's last cells share the last column. */
export const MAX_TABLE_COLUMNS = 64;

/**
 * What a cell costs besides its text, charged as text: the Markdown it becomes (`| ` and ` `),
 * so that a table of empty cells costs what its text will, and its memory stays bounded too.
 */
const CELL_COST = 3;

export interface GridCell {
  /** Columns the cell covers (HTML `colspan`, Word `gridSpan`). */
  span?: number;
  /** Rows the cell covers (HTML `rowspan`); later rows leave its columns to it. */
  rowSpan?: number;
  /** The cell continues the one above it (Word `vMerge` without `restart`): its text is that. */
  mergedAbove?: boolean;
}

interface Row {
  cells: string[];
  /** `spanned[i]`: column i is covered by a cell starting in a column to its left. */
  spanned: boolean[];
  header: boolean;
}

/** A cell reaching down into later rows: what it puts in each column, for how many more rows. */
interface Reaching {
  text: string;
  spanned: boolean;
  rows: number;
}

export interface MarkdownTableText {
  /** Rows above the table that are one cell across it (a title row), as text. */
  caption: string[];
  /** The table's lines: header row, delimiter row, body rows. */
  lines: string[];
}

export class TableGrid {
  readonly #meter: DocumentWorkMeter;
  readonly #rows: Row[] = [];
  /** By column: a cell from a row above that still covers it. */
  #reaching: (Reaching | undefined)[] = [];
  #chars = 0;

  constructor(meter: DocumentWorkMeter) {
    this.#meter = meter;
  }

  /** Starts a row; `header` marks a header row (HTML `thead`). */
  row(header = false): void {
    this.#endRow();
    this.#rows.push({ cells: [], spanned: [], header });
  }

  /** Marks the current row as a header row (Word's `tblHeader`, read after its row began). */
  header(): void {
    const row = this.#rows[this.#rows.length - 1];
    if (row) row.header = true;
  }

  /** The current row's next cell. */
  cell(text: string, options: GridCell = {}): void {
    if (this.#rows.length === 0) this.row();
    const row = this.#rows[this.#rows.length - 1]!;
    this.#fillReaching(row);
    const span = clamp(options.span, MAX_TABLE_COLUMNS);
    if (row.cells.length >= MAX_TABLE_COLUMNS) {
      const last = row.cells.length - 1;
      if (text) this.#place(row, last, row.cells[last] ? `${row.cells[last]} ${text}` : text);
      return;
    }
    const above = this.#rows[this.#rows.length - 2];
    const start = row.cells.length;
    const end = Math.min(start + span, MAX_TABLE_COLUMNS);
    const rowSpan = clamp(options.rowSpan, Number.MAX_SAFE_INTEGER);
    for (let column = start; column < end; column++) {
      const content = options.mergedAbove ? (above?.cells[column] ?? '') : text;
      const spanned = options.mergedAbove ? (above?.spanned[column] ?? false) : column > start;
      this.#place(row, column, content, spanned);
      if (rowSpan > 1) this.#reaching[column] = { text: content, spanned, rows: rowSpan - 1 };
    }
  }

  /**
   * The table as Markdown, or undefined when it has fewer than two columns with text: a
   * one-column table is a frame around text, whose paragraphs the reader keeps as they are.
   */
  markdown(): MarkdownTableText | undefined {
    this.#endRow();
    const rows = [...this.#rows];
    // Columns only ever covered by a cell from their left are none of the table's own: a cell
    // spanning "100" columns means "to the end of the row".
    const width = Math.max(0, ...rows.map((row) => row.spanned.lastIndexOf(false) + 1));
    const withText = new Set<number>();
    for (const row of rows) {
      row.cells.forEach((cell, column) => {
        if (cell !== '' && !row.spanned[column]) withText.add(column);
      });
    }
    if (withText.size < 2) return undefined;
    const caption: string[] = [];
    while (rows.length > 1 && isTitleRow(rows[0]!)) caption.push(rows.shift()!.cells[0]!);
    let headers = 0;
    while (headers < rows.length && rows[headers]!.header) headers++;
    // Every row marked as a header row (repeated on each page) leaves no body: the first is it.
    if (headers === 0 || headers === rows.length) headers = 1;
    const header = Array.from({ length: width }, (_, column) => {
      const parts: string[] = [];
      for (const row of rows.slice(0, headers)) {
        const text = row.cells[column] ?? '';
        if (text && !parts.includes(text)) parts.push(text);
      }
      return parts.join(' ');
    });
    const body = rows
      .slice(headers)
      .map((row) =>
        row.cells.slice(0, width).map((cell, column) => (row.spanned[column] ? '' : cell)),
      );
    return { caption, lines: markdownTable(header, body) };
  }

  /** Columns of the current row still covered from above, up to its next free one. */
  #fillReaching(row: Row): void {
    for (;;) {
      const column = row.cells.length;
      const reaching = this.#reaching[column];
      if (column >= MAX_TABLE_COLUMNS || reaching === undefined) return;
      this.#place(row, column, reaching.text, reaching.spanned);
      if (--reaching.rows === 0) this.#reaching[column] = undefined;
    }
  }

  /**
   * Ends the current row: columns covered from above after its last cell are filled too. A row
   * without text is dropped (it would be dropped from the table anyway).
   */
  #endRow(): void {
    const row = this.#rows[this.#rows.length - 1];
    if (row === undefined) return;
    for (let column = row.cells.length; column < this.#reaching.length; column++) {
      if (this.#reaching[column] === undefined) {
        if (this.#reaching.slice(column).every((r) => r === undefined)) break;
        this.#place(row, column, '');
        continue;
      }
      this.#fillReaching(row);
      column = row.cells.length - 1;
    }
    if (row.cells.every((cell) => cell === '')) this.#rows.pop();
  }

  #place(row: Row, column: number, text: string, spanned = false): void {
    this.#chars += text.length + CELL_COST;
    this.#meter.pending(this.#chars);
    row.cells[column] = text;
    row.spanned[column] = spanned;
  }
}

/** A row that is one cell across the whole table: a title above it, not a row of it. */
function isTitleRow(row: Row): boolean {
  return row.cells[0] !== '' && row.cells.every((_, column) => column === 0 || row.spanned[column]);
}

function clamp(value: number | undefined, max: number): number {
  return value !== undefined && Number.isInteger(value) && value >= 1 ? Math.min(value, max) : 1;
}
