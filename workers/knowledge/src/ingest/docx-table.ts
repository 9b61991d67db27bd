import type { SaxesTagNS } from 'saxes';
import type { DocumentWorkMeter } from './document-work-budget';
import { wordAttribute } from './docx-xml';
import type { SectionWriter } from './section-writer';
import { MAX_TABLE_COLUMNS, TableGrid } from './table-grid';

/** A paragraph's text as the body reader ends it, with its heading level if it has one. */
export interface DocxParagraphText {
  text: string;
  level: 1 | 2 | 3 | undefined;
}

interface Cell {
  texts: string[];
  span: number;
  mergedAbove: boolean;
}

/**
 * One `w:tbl` of a WordprocessingML part, read as its elements stream by (docx-body.ts hands
 * them over): rows (`w:tr`, header rows marked `w:tblHeader`), cells (`w:tc`, merged across
 * with `w:gridSpan`, down with `w:vMerge`) and the paragraphs in them, which become a Markdown
 * table (table-grid.ts). A cell's paragraphs are joined with a space; a table nested in a cell
 * is that cell's text, its cells joined with a space too. A table of one column (a frame round
 * some text) keeps its paragraphs as they were, headings included.
 */
export class DocxTable {
  readonly #grid: TableGrid;
  /** Every paragraph of the table in order, for a table that turns out to be one column. */
  readonly #paragraphs: DocxParagraphText[] = [];
  readonly #meter: DocumentWorkMeter;
  /** Characters of the paragraphs held: charged, as the paragraphs are no blocks yet. */
  #held = 0;
  /** Tables open inside this one's cells: their paragraphs are the enclosing cell's text. */
  #nested = 0;
  #cell: Cell | undefined;

  constructor(meter: DocumentWorkMeter) {
    this.#meter = meter;
    this.#grid = new TableGrid(meter);
  }

  /** An element opened inside the table; `parent` is the name of the element it is in. */
  open(name: string, parent: string | undefined, tag: SaxesTagNS): void {
    if (name === 'tbl') this.#nested++;
    if (this.#nested > 0) return;
    switch (name) {
      case 'tr':
        this.#grid.row();
        return;
      case 'tblHeader':
        if (parent === 'trPr' && isOn(wordAttribute(tag, 'val'))) this.#grid.header();
        return;
      case 'gridBefore':
        // Grid columns the row leaves out before its first cell.
        if (parent === 'trPr') {
          const before = Math.min(count(wordAttribute(tag, 'val')), MAX_TABLE_COLUMNS);
          for (let column = 0; column < before; column++) this.#grid.cell('');
        }
        return;
      case 'tc':
        this.#cell = { texts: [], span: 1, mergedAbove: false };
        return;
      case 'gridSpan':
        if (parent === 'tcPr' && this.#cell) this.#cell.span = count(wordAttribute(tag, 'val'));
        return;
      case 'vMerge':
        if (parent === 'tcPr' && this.#cell) {
          this.#cell.mergedAbove = wordAttribute(tag, 'val') !== 'restart';
        }
        return;
    }
  }

  /** An element of the table closed; true when it was the table itself. */
  close(name: string): boolean {
    if (name === 'tbl') {
      if (this.#nested === 0) return true;
      this.#nested--;
      return false;
    }
    if (name === 'tc' && this.#nested === 0 && this.#cell) {
      const { texts, span, mergedAbove } = this.#cell;
      this.#grid.cell(texts.join(' '), { span, mergedAbove });
      this.#cell = undefined;
    }
    return false;
  }

  /** A paragraph (or a line of one) ended inside the table. */
  paragraph(paragraph: DocxParagraphText): void {
    this.#held += paragraph.text.length;
    this.#meter.pending(this.#held);
    this.#paragraphs.push(paragraph);
    this.#cell?.texts.push(paragraph.text);
  }

  /** Writes the table out: a Markdown table, or its paragraphs when it has one column. */
  write(writer: SectionWriter): void {
    const table = this.#grid.markdown();
    if (table === undefined) {
      for (const { text, level } of this.#paragraphs) {
        if (level !== undefined) writer.heading(level, text);
        writer.block(text);
      }
      return;
    }
    for (const caption of table.caption) writer.block(caption);
    writer.table(table.lines);
  }
}

/** An on/off property: on when it has no value or any value but the off ones. */
function isOn(value: string | undefined): boolean {
  return value === undefined || !['0', 'false', 'off'].includes(value);
}

function count(value: string | undefined): number {
  const number = Number(value);
  return Number.isInteger(number) && number >= 1 ? number : 1;
}
