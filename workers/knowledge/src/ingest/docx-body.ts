import type { SaxesTagNS } from 'saxes';
import type { DocumentWorkMeter } from './document-work-budget';
import { headingStyleId, type HeadingLevels } from './docx-styles';
import { DocxTable } from './docx-table';
import type { PartReader } from './docx-text';
import { isCompatibilityChoice, wordAttribute, wordName } from './docx-xml';
import type { SectionWriter } from './section-writer';

/**
 * Content that is not the document's text as it reads: deleted and moved-away revisions,
 * property blocks, and the separators Word keeps among the notes.
 */
const SKIPPED = new Set(['del', 'moveFrom', 'rPr', 'sdtPr', 'sdtEndPr', 'sectPr', 'tblPr']);
const NOTE_SEPARATORS = new Set(['separator', 'continuationSeparator', 'continuationNotice']);

interface Paragraph {
  text: string;
  level: 1 | 2 | 3 | undefined;
}

/**
 * Reads a WordprocessingML part (the body, the footnotes or the endnotes) into blocks: each
 * paragraph, and each line of a paragraph broken with a line break, is a block; a paragraph
 * in a heading style (or at outline level 1–3) is a heading. A table is one block, a Markdown
 * table whose cells hold their paragraphs' text (docx-table.ts). A text box's paragraphs
 * (inside a paragraph of their own) are blocks of their own, read from the drawing's fallback
 * so that they are read once.
 */
export class DocxBodyReader implements PartReader {
  readonly #writer: SectionWriter;
  readonly #headings: HeadingLevels;
  readonly #meter: DocumentWorkMeter;
  /** Open paragraphs, innermost last (a text box's paragraph inside a paragraph). */
  readonly #paragraphs: Paragraph[] = [];
  /** Names of the open elements, WordprocessingML ones only (others as ''). */
  readonly #open: string[] = [];
  /** While inside skipped content: the depth of the element that started it. */
  #skippedAt = 0;
  /** The table being read, while inside one (tables nested in it are its own business). */
  #table: DocxTable | undefined;

  constructor(writer: SectionWriter, headings: HeadingLevels, meter: DocumentWorkMeter) {
    this.#writer = writer;
    this.#headings = headings;
    this.#meter = meter;
  }

  open(tag: SaxesTagNS, depth: number): void {
    const name = wordName(tag) ?? '';
    this.#open.push(name);
    if (this.#skippedAt > 0) return;
    if (SKIPPED.has(name) || isCompatibilityChoice(tag) || this.#isNoteSeparator(name, tag)) {
      this.#skippedAt = depth;
      return;
    }
    const parent = this.#open[this.#open.length - 2];
    const paragraph = this.#paragraphs.at(-1);
    if (this.#table) this.#table.open(name, parent, tag);
    else if (name === 'tbl') {
      // A table inside a paragraph's text box: the paragraph's text so far comes first.
      if (paragraph) this.#emitLine(paragraph);
      this.#table = new DocxTable(this.#meter);
      return;
    }
    switch (name) {
      case 'p':
        // The outer paragraph's text so far ends where a text box's paragraph begins.
        if (paragraph) this.#emitLine(paragraph);
        this.#paragraphs.push({ text: '', level: undefined });
        return;
      case 'pStyle':
        if (paragraph && parent === 'pPr') {
          const id = wordAttribute(tag, 'val') ?? '';
          paragraph.level = this.#headings.get(id) ?? headingStyleId(id);
        }
        return;
      case 'outlineLvl':
        if (paragraph && parent === 'pPr') {
          const level = Number(wordAttribute(tag, 'val')) + 1;
          paragraph.level = level >= 1 && level <= 3 ? (level as 1 | 2 | 3) : undefined;
        }
        return;
      case 'tab':
        if (parent === 'r') this.#append('\t');
        return;
      case 'noBreakHyphen':
        if (parent === 'r') this.#append('-');
        return;
      case 'br':
      case 'cr':
        if (parent === 'r' && paragraph) {
          // A heading is one line whatever its breaks; other paragraphs end a block there.
          if (paragraph.level !== undefined) this.#append(' ');
          else this.#emitLine(paragraph);
        }
        return;
    }
  }

  text(text: string): void {
    if (this.#skippedAt === 0 && this.#open.at(-1) === 't') this.#append(text);
  }

  close(_tag: SaxesTagNS, depth: number): void {
    const name = this.#open.pop();
    if (this.#skippedAt > 0) {
      if (depth === this.#skippedAt) this.#skippedAt = 0;
      return;
    }
    if (name === 'p') {
      const paragraph = this.#paragraphs.pop();
      if (paragraph) this.#emitLine(paragraph);
    } else if (name !== undefined && this.#table?.close(name)) {
      this.#table.write(this.#writer);
      this.#table = undefined;
    }
  }

  #append(text: string): void {
    const paragraph = this.#paragraphs.at(-1);
    if (!paragraph) return;
    paragraph.text += text;
    this.#meter.pending(paragraph.text.length);
  }

  /** The paragraph's text so far becomes a block (a heading, if it is one). */
  #emitLine(paragraph: Paragraph): void {
    const text = paragraph.text.replace(/\s+/g, ' ').trim();
    paragraph.text = '';
    if (!text) return;
    if (this.#table) this.#table.paragraph({ text, level: paragraph.level });
    else {
      if (paragraph.level !== undefined) this.#writer.heading(paragraph.level, text);
      this.#writer.block(text);
    }
  }

  #isNoteSeparator(name: string, tag: SaxesTagNS): boolean {
    return (
      (name === 'footnote' || name === 'endnote') &&
      NOTE_SEPARATORS.has(wordAttribute(tag, 'type') ?? '')
    );
  }
}
