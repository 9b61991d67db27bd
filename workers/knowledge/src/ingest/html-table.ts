import type { DocumentWorkMeter } from './document-work-budget';
import { attributeOf, BLOCKS, INVISIBLE, textOf as nodeText, type MeteredNode } from './html-tree';
import { TableGrid, type MarkdownTableText } from './table-grid';

/**
 * An HTML `<table>` as a Markdown table (table-grid.ts): its rows in order (`thead`, `tbody`,
 * `tfoot`), the rows of `thead` (or the leading rows of `th` cells) as its header, otherwise its
 * first row; `colspan` and `rowspan` keep the rows as wide as the grid; a `caption` goes above.
 *
 * Many pages, older government sites above all, lay themselves out in tables: a banner row, a
 * menu cell beside the article's cell. Those are not tables of data and are read as before, a
 * block per block element: a table that says so (`role="presentation"`), that holds a table or
 * a heading, or a cell longer than MAX_DATA_CELL characters. Nothing is read twice for it: the
 * check stops at the first nested table, so each node is read by its nearest table alone.
 */

/** A cell longer than this (after collapsing whitespace) holds an article, not a datum. */
export const MAX_DATA_CELL = 1_000;
/** Raw text read in one cell before it is known to be too long, whitespace and all. */
const MAX_RAW_CELL = 16 * MAX_DATA_CELL;

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const ROW_GROUPS = new Set(['thead', 'tbody', 'tfoot']);
const CELLS = new Set(['td', 'th']);

/** Marks a table that lays a page out, found while reading a cell. */
const LAYOUT = Symbol('layout');

/** The table as Markdown, or undefined for a layout table (and for one of a single column). */
export function htmlTable(
  table: MeteredNode,
  meter: DocumentWorkMeter,
): MarkdownTableText | undefined {
  const role = attributeOf(table, 'role');
  if (role === 'presentation' || role === 'none') return undefined;
  const grid = new TableGrid(meter);
  const captions: string[] = [];
  // Header rows: those of thead, or the leading rows whose cells are all th.
  let leading = true;
  for (const child of childrenOf(table)) {
    const tag = child.tagName ?? '';
    if (tag === 'caption') {
      const text = cellText(child);
      if (text === LAYOUT) return undefined;
      if (text) captions.push(text);
      continue;
    }
    const rows = ROW_GROUPS.has(tag) ? childrenOf(child) : tag === 'tr' ? [child] : [];
    for (const row of rows) {
      if (row.tagName !== 'tr') continue;
      const cells = childrenOf(row).filter((cell) => CELLS.has(cell.tagName ?? ''));
      leading &&= tag === 'thead' || cells.every((cell) => cell.tagName === 'th');
      grid.row(leading && cells.length > 0);
      for (const cell of cells) {
        const text = cellText(cell);
        if (text === LAYOUT) return undefined;
        grid.cell(text, {
          span: spanOf(attributeOf(cell, 'colspan')),
          rowSpan: spanOf(attributeOf(cell, 'rowspan')),
        });
      }
    }
  }
  const markdown = grid.markdown();
  return markdown && { caption: [...captions, ...markdown.caption], lines: markdown.lines };
}

function childrenOf(node: MeteredNode): MeteredNode[] {
  return node.childNodes ?? [];
}

/**
 * A cell's visible text on one line, a space wherever a block element begins or ends; LAYOUT
 * at the first sign that the table lays a page out. Walked without recursion, like the page.
 */
function cellText(cell: MeteredNode): string | typeof LAYOUT {
  let text = '';
  // Nodes to visit, last first; `null` marks where a block element's children end.
  const stack: (MeteredNode | null)[] = [...childrenOf(cell)].reverse();
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null) {
      text += ' ';
      continue;
    }
    if (node === undefined) break;
    if (node.nodeName === '#text') {
      text += nodeText(node);
      if (text.length > MAX_RAW_CELL) return LAYOUT;
      continue;
    }
    const tag = node.tagName;
    if (tag === undefined || INVISIBLE.has(tag)) continue;
    if (tag === 'table' || HEADINGS.has(tag)) return LAYOUT;
    if (BLOCKS.has(tag)) {
      text += ' ';
      stack.push(null);
    }
    const children = childrenOf(node);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  const line = text.replace(/\s+/gu, ' ').trim();
  return line.length > MAX_DATA_CELL ? LAYOUT : line;
}

/** A `colspan` or `rowspan`: a positive whole number (the grid bounds it), 1 otherwise. */
function spanOf(value: string | undefined): number {
  const number = Number.parseInt(value ?? '', 10);
  return Number.isInteger(number) && number >= 1 ? number : 1;
}
