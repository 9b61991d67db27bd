/**
 * How much work reading one document without pages (Word, HTML, Markdown, text) may cost, and
 * the meter its reader charges as it goes.
 *
 * A byte limit alone does not bound a parser's work: an 84 KB Word file whose document part
 * inflates to 29 MB of one-letter paragraphs stays under any sensible inflate limit, yet a
 * reader that builds a tree of it needs gigabytes. So every reader counts what it builds —
 * elements, paragraphs (blocks), characters of text, nesting — and stops with
 * {@link DocumentTooComplex} as soon as one count passes its budget, before the work (and the
 * memory) it would take. Each format's budget is set so that a document at the limit is read
 * within a Workers isolate's 128 MB (`npm run bench:ingest` prints the peak heap of the worst
 * document of each format at its limits).
 *
 * Work is counted, not timed: inside workerd the clock stands still while code runs.
 */

export interface DocumentWorkBudget {
  /**
   * Elements the reader meets: XML elements of a Word document's parts, HTML elements, and the
   * lines of a Markdown text (each may become a block token, built before any is read).
   */
  maxElements: number;
  /** Blocks of text (paragraphs, table cells, list items, headings) the document yields. */
  maxBlocks: number;
  /** Characters (UTF-16 code units) of text the document yields. */
  maxTextChars: number;
  /** How deeply elements (or Markdown containers: quotes, lists) may nest. */
  maxDepth: number;
}

export type DocumentWork = 'elements' | 'blocks' | 'textChars' | 'depth';

/** The document needs more work than its budget allows: it fails as `document_too_complex`. */
export class DocumentTooComplex extends Error {
  readonly work: DocumentWork | 'inflatedBytes';
  readonly limit: number;

  constructor(work: DocumentTooComplex['work'], limit: number) {
    super(`document too complex: more than ${limit} ${work}`);
    this.name = 'DocumentTooComplex';
    this.work = work;
    this.limit = limit;
  }
}

/**
 * The budgets by format. Word and HTML are read into a structure whose size follows the
 * elements (HTML: parse5's tree, about 450 bytes an element with its text), so their element
 * budgets differ: a Word document is read as a stream, one element at a time, and only its
 * text is kept. Text and Markdown have no elements to count; their blocks and characters are.
 * Real documents stay far below: a 300-page Word report has about 400,000 elements, 12,000
 * paragraphs and 600,000 characters; the section limit (MAX_PDF_PAGES sections of about 4,000
 * characters) refuses longer ones anyway, after they were read.
 */
export const DOCUMENT_WORK_BUDGETS = {
  docx: { maxElements: 3_000_000, maxBlocks: 200_000, maxTextChars: 4_000_000, maxDepth: 256 },
  html: { maxElements: 120_000, maxBlocks: 100_000, maxTextChars: 4_000_000, maxDepth: 512 },
  markdown: { maxElements: 200_000, maxBlocks: 100_000, maxTextChars: 4_000_000, maxDepth: 64 },
  text: { maxElements: 0, maxBlocks: 200_000, maxTextChars: 4_000_000, maxDepth: 0 },
} as const satisfies Record<string, DocumentWorkBudget>;

/** The work of one document so far; every charge that passes the budget throws. */
export class DocumentWorkMeter {
  readonly #budget: DocumentWorkBudget;
  #elements = 0;
  #blocks = 0;
  #textChars = 0;

  constructor(budget: DocumentWorkBudget) {
    this.#budget = budget;
  }

  /** One more element, opened at `depth` (1 for the root). */
  element(depth: number): void {
    if (++this.#elements > this.#budget.maxElements) this.#over('elements');
    this.nesting(depth);
  }

  /** Something is open `depth` levels deep (an element, a Markdown container). */
  nesting(depth: number): void {
    if (depth > this.#budget.maxDepth) this.#over('depth');
  }

  /** One more block of text (a paragraph, a cell, a heading), `chars` long. */
  block(chars: number): void {
    if (++this.#blocks > this.#budget.maxBlocks) this.#over('blocks');
    this.#textChars += chars;
    if (this.#textChars > this.#budget.maxTextChars) this.#over('textChars');
  }

  /**
   * Text a reader holds that is not a block yet (a paragraph still being read): it would not
   * fit either once it is one, so the reader stops before it grows further.
   */
  pending(chars: number): void {
    if (this.#textChars + chars > this.#budget.maxTextChars) this.#over('textChars');
  }

  #over(work: DocumentWork): never {
    throw new DocumentTooComplex(work, this.#budget[limitOf[work]]);
  }
}

const limitOf = {
  elements: 'maxElements',
  blocks: 'maxBlocks',
  textChars: 'maxTextChars',
  depth: 'maxDepth',
} as const satisfies Record<DocumentWork, keyof DocumentWorkBudget>;
