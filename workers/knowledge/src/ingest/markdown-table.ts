/**
 * Tables as GitHub-flavoured Markdown: the one form every reader (Word, HTML, PDF, a Markdown
 * upload) gives a table in the text the service indexes and cites. A table is a header row, a
 * delimiter row and one line per row, so a retrieved row stays a row, and the chunker can find
 * a table again in page text to repeat its header (chunker.ts).
 */

/** A cell's text on one line: whitespace collapsed, `|` escaped so it cannot end the cell. */
export function tableCell(text: string): string {
  return text.replace(/\s+/gu, ' ').trim().replaceAll('|', '\\|');
}

/**
 * The table's lines: `header`, the delimiter row, then `rows`, every row as wide as the widest
 * (missing cells empty), so that every line has the same number of cells.
 */
export function markdownTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
): string[] {
  const width = Math.max(header.length, ...rows.map((row) => row.length));
  const line = (cells: readonly string[]) =>
    `|${Array.from({ length: width }, (_, i) => {
      const cell = tableCell(cells[i] ?? '');
      return cell ? ` ${cell} ` : ' ';
    }).join('|')}|`;
  return [line(header), `|${' --- |'.repeat(width)}`, ...rows.map(line)];
}

/** A delimiter row (`| --- | :-: |`, leading and trailing pipes optional, one at least). */
const DELIMITER_ROW = /^\|? *:?-+:? *(?:\| *:?-+:? *)*\|? *$/u;

/** A GFM table found in lines of text: its header line and its last row, by index. */
export interface TableLines {
  header: number;
  last: number;
}

/**
 * The tables in `lines` as GFM reads them: a line with a pipe, then a delimiter row with a
 * pipe and as many cells, then every line up to the next blank one.
 */
export function findMarkdownTables(lines: readonly string[]): TableLines[] {
  const tables: TableLines[] = [];
  for (let index = 0; index + 1 < lines.length; index++) {
    const header = lines[index] ?? '';
    const delimiter = lines[index + 1] ?? '';
    if (!delimiter.includes('|') || !DELIMITER_ROW.test(delimiter) || !header.includes('|')) {
      continue;
    }
    if (cellCount(header) !== cellCount(delimiter)) continue;
    let last = index + 1;
    while (last + 1 < lines.length && (lines[last + 1] ?? '').trim() !== '') last++;
    tables.push({ header: index, last });
    index = last;
  }
  return tables;
}

/** Cells of a table line: pipes not escaped, less a leading and a trailing one. */
function cellCount(line: string): number {
  const trimmed = line.trim();
  let pipes = 0;
  for (let i = 0; i < trimmed.length; i++) {
    if (trimmed[i] === '\\') i++;
    else if (trimmed[i] === '|') pipes++;
  }
  if (trimmed.startsWith('|')) pipes--;
  if (trimmed.endsWith('|') && !trimmed.endsWith('\\|') && trimmed.length > 1) pipes--;
  return pipes + 1;
}
