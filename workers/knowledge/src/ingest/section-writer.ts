import type { DocumentWorkMeter } from './document-work-budget';

/**
 * Documents without pages (plain text, Markdown, HTML, Word) become sections, which take the
 * place of pages: they are numbered from 1, chunks never span them, and answers cite them by
 * their heading (`label`) where the document has headings.
 */
export interface Section {
  /** The heading path ("Eligibility › Income"), or null where the document has none. */
  label: string | null;
  text: string;
}

/** About a printed page of text: longer stretches become several sections. */
export const MAX_SECTION_CHARS = 4_000;

/**
 * Gathers a document's blocks into sections as its reader finds them: a heading of level 1–3
 * starts a section labelled with the headings above it, and blocks under one label are
 * gathered into sections of at most MAX_SECTION_CHARS characters (a longer block stays whole,
 * in a section of its own). Every block is charged to the document's work meter.
 */
export class SectionWriter {
  readonly #meter: DocumentWorkMeter;
  readonly #sections: Section[] = [];
  readonly #path: string[] = [];
  #text = '';
  /** Code points in #text, kept as blocks are added: counting them again each time was quadratic. */
  #length = 0;

  constructor(meter: DocumentWorkMeter) {
    this.#meter = meter;
  }

  /** A heading of `level` (1–3) starts a new section; its text becomes the path's last part. */
  heading(level: 1 | 2 | 3, text: string): void {
    this.#endSection();
    this.#path.length = level - 1;
    this.#path[level - 1] = text;
  }

  block(text: string): void {
    if (!text) return;
    this.#meter.block(text.length);
    const length = codePoints(text);
    if (this.#text && this.#length + length + 2 > MAX_SECTION_CHARS) this.#endSection();
    if (this.#text) {
      this.#text += `\n\n${text}`;
      this.#length += length + 2;
    } else {
      this.#text = text;
      this.#length = length;
    }
  }

  /**
   * A Markdown table (header row, delimiter row, then its rows) as a block. A table longer than
   * a section is cut between rows, and each section it goes on in starts with its header and
   * delimiter rows again, so a cited section still says what its columns are (unless the header
   * alone is a quarter of a section: repeating it would crowd out the rows).
   */
  table(lines: readonly string[]): void {
    const [header, delimiter, ...rows] = lines;
    if (header === undefined || delimiter === undefined) return;
    const head = `${header}\n${delimiter}`;
    const headLength = codePoints(head);
    const repeat = headLength <= MAX_SECTION_CHARS / 4;
    let piece = head;
    let length = headLength;
    let rowsInPiece = 0;
    for (const row of rows) {
      const rowLength = codePoints(row);
      // A part holds one row at least, however long.
      if (rowsInPiece > 0 && length + 1 + rowLength > MAX_SECTION_CHARS) {
        this.block(piece);
        piece = repeat ? head : '';
        length = repeat ? headLength : 0;
        rowsInPiece = 0;
      }
      piece = piece ? `${piece}\n${row}` : row;
      length = length > 0 ? length + 1 + rowLength : rowLength;
      rowsInPiece++;
    }
    this.block(piece);
  }

  sections(): Section[] {
    this.#endSection();
    return this.#sections;
  }

  #endSection(): void {
    if (!this.#text) return;
    // A heading may skip a level (a level 3 right under a level 1): the path has no hole.
    const path = this.#path.filter((part) => part);
    this.#sections.push({
      label: path.length > 0 ? path.join(' › ') : null,
      text: this.#text,
    });
    this.#text = '';
    this.#length = 0;
  }
}

/** Code points, as the section limit counts characters (a CJK extension character is one). */
function codePoints(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one character.
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}
