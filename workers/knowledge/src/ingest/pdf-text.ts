import { getResolvedPDFJS } from 'unpdf';
import type { PDFDocumentLoadingTask, PDFDocumentProxy } from 'unpdf/pdfjs';
import { hasExtractableText, pageTexts } from './page-text.ts';
import { PdfTextError } from './pdf-failure.ts';
import { layoutPage, type PageLayout, type TextRun } from './pdf-layout.ts';
import { judgePage } from './text-source.ts';
import {
  DEFAULT_PDF_WORK_BUDGET,
  NO_PDF_WORK,
  type PdfWork,
  type PdfWorkBudget,
  PdfWorkMeter,
} from './pdf-work-budget.ts';

/**
 * Text of an uploaded PDF, page by page, rebuilt from the layout into paragraphs (see
 * pdf-layout.ts and page-text.ts), with every way a bad upload can fail reported as a
 * {@link PdfTextError}.
 *
 * Two entry points: {@link extractPdfText} reads a whole document; {@link extractPdfLayout}
 * reads a range of pages and returns their layout, for ingestion in batches (one invocation
 * per batch), after which {@link pageTexts} turns all the batches' layouts into text at once.
 *
 * Relative imports carry their `.ts` extension so that Node scripts (bench/, dev/) can load
 * this file directly.
 */

export { describePdfFailure, type PdfFailureReason, PdfTextError } from './pdf-failure.ts';
export { DEFAULT_PDF_WORK_BUDGET, type PdfWork, type PdfWorkBudget } from './pdf-work-budget.ts';
export type { LayoutBlock, PageLayout } from './pdf-layout.ts';
export { hasExtractableText, pageTexts } from './page-text.ts';

export interface PdfLimits {
  /** Documents with more pages are refused before any page is read. */
  maxPages: number;
  /** Work one document may cost, over all its batches; {@link DEFAULT_PDF_WORK_BUDGET} parts by default. */
  budget?: Partial<PdfWorkBudget>;
}

export interface PdfLayoutOptions extends PdfLimits {
  /**
   * The pages to read, 1-based and inclusive; all by default. `last` past the end is cut;
   * `last` 0 reads no page (the document is opened and checked, e.g. to count its pages).
   */
  pages?: { first: number; last: number };
  /** What earlier batches of the same document used (their `used`), charged to the budget. */
  alreadyUsed?: PdfWork;
  /**
   * Hand `bytes` to pdf.js, which detaches their buffer, instead of a copy: for a caller that
   * has no further use for them (an ingestion step), one copy of the document less in memory.
   */
  consumeBytes?: boolean;
}

export interface PdfLayoutBatch {
  pageCount: number;
  /** One layout per page read, in page order. */
  pages: PageLayout[];
  /** Work used so far: `alreadyUsed` plus this batch's. */
  used: PdfWork;
}

export interface PdfText {
  /** Text of each page: paragraphs separated by blank lines; index 0 is page 1. */
  pages: string[];
  pageCount: number;
  used: PdfWork;
}

const PAGES_IN_FLIGHT = 8;

const PDF_SIGNATURE = [0x25, 0x50, 0x44, 0x46]; // "%PDF"

// Text extraction needs neither glyph outlines nor system fonts; eval is not allowed in
// workerd; errors only in the log (missing standard-font data is a warning, and expected).
// stopAtErrors stays false on purpose: like a viewer, pdf.js then recovers what it can from
// slightly broken files instead of refusing them.
const PDFJS_OPTIONS = {
  isEvalSupported: false,
  useSystemFonts: false,
  disableFontFace: true,
  verbosity: 0,
} as const;

/**
 * Reads the text of every page. Throws only {@link PdfTextError} for bad input: `no_text` when
 * no page has any, `too_complex` when the document needs more work than its budget.
 *
 * `bytes` is copied before parsing: pdf.js takes ownership of (detaches) the buffer it is given,
 * and the caller usually still needs the bytes to store or hash them.
 */
export async function extractPdfText(bytes: Uint8Array, limits: PdfLimits): Promise<PdfText> {
  const batch = await extractPdfLayout(bytes, limits);
  const pages = pageTexts(batch.pages);
  if (!hasExtractableText(pages)) throw new PdfTextError('no_text');
  return { pages, pageCount: batch.pageCount, used: batch.used };
}

/**
 * The layout of a range of pages (all by default), and the work used. Throws only
 * {@link PdfTextError} for bad input, like {@link extractPdfText}, except that it does not
 * decide `no_text`: one batch without text says nothing about the document.
 */
export async function extractPdfLayout(
  bytes: Uint8Array,
  options: PdfLayoutOptions,
): Promise<PdfLayoutBatch> {
  assertLimits(options);
  const meter = new PdfWorkMeter(
    { ...DEFAULT_PDF_WORK_BUDGET, ...options.budget },
    options.alreadyUsed ?? NO_PDF_WORK,
  );
  if (meter.exceeded !== undefined) throw new PdfTextError('too_complex');
  if (!hasPdfSignature(bytes)) throw new PdfTextError('not_pdf');
  // Outside the try: pdf.js failing to load is the service's fault, not the file's.
  const { getDocument } = await getResolvedPDFJS();
  let loadingTask: PDFDocumentLoadingTask | undefined;
  let unregister = () => {};
  try {
    loadingTask = getDocument({
      data: options.consumeBytes ? bytes : bytes.slice(),
      ...PDFJS_OPTIONS,
    });
    // Before pdf.js reads anything: its worker starts on a later turn.
    unregister = meter.register(loadingTask.docId);
    const pdf = await loadingTask.promise;
    if (pdf.numPages > options.maxPages) {
      throw new PdfTextError('too_many_pages', {
        pageCount: pdf.numPages,
        maxPages: options.maxPages,
      });
    }
    const first = options.pages?.first ?? 1;
    const last = Math.min(options.pages?.last ?? pdf.numPages, pdf.numPages);
    const pages = await readPages(pdf, first, last, meter);
    return { pageCount: pdf.numPages, pages, used: meter.used };
  } catch (error) {
    throw asPdfTextError(error, meter);
  } finally {
    // Destroying the loading task also releases a document that failed half-way through
    // opening (a password prompt), which a PDFDocumentProxy could not. A failure to release
    // must not replace the answer.
    await loadingTask?.destroy().catch(() => undefined);
    unregister();
  }
}

function assertLimits(options: PdfLayoutOptions): void {
  if (!Number.isInteger(options.maxPages) || options.maxPages < 1) {
    throw new RangeError(`maxPages must be a positive integer, got ${options.maxPages}`);
  }
  const range = options.pages;
  if (
    range !== undefined &&
    !(
      Number.isInteger(range.first) &&
      Number.isInteger(range.last) &&
      range.first >= 1 &&
      (range.last >= range.first || range.last === 0)
    )
  ) {
    throw new RangeError(`pages must be 1-based with first ≤ last, got ${JSON.stringify(range)}`);
  }
}

/**
 * `%PDF` at the start, or within the first 1024 bytes after something else (a byte-order mark,
 * spaces): the specification allows it, and readers (pdf.js too) read such files.
 */
function hasPdfSignature(bytes: Uint8Array): boolean {
  const limit = Math.min(bytes.length, 1024) - PDF_SIGNATURE.length;
  for (let start = 0; start <= limit; start++) {
    if (PDF_SIGNATURE.every((byte, index) => bytes[start + index] === byte)) return true;
  }
  return false;
}

/**
 * A few pages at a time: requests in flight overlap pdf.js's message round trips (10–20 %
 * faster than one by one here), while the bound keeps a long document's parsed pages from all
 * being held at once. The meter is checked after every batch: pdf.js swallows the error that
 * stopped it (it returns what it had read), so the meter is what says the budget is spent.
 */
async function readPages(
  pdf: PDFDocumentProxy,
  firstPage: number,
  lastPage: number,
  meter: PdfWorkMeter,
): Promise<PageLayout[]> {
  const pages: PageLayout[] = [];
  for (let first = firstPage; first <= lastPage; first += PAGES_IN_FLIGHT) {
    const last = Math.min(first + PAGES_IN_FLIGHT - 1, lastPage);
    const batch = Array.from({ length: last - first + 1 }, (_, offset) => first + offset);
    for (const page of await Promise.all(batch.map((number) => readPage(pdf, number, meter)))) {
      pages.push(page);
    }
    if (meter.exceeded !== undefined) throw new PdfTextError('too_complex');
  }
  return pages;
}

/**
 * Text items one page may have. Real pages have a few hundred to a few thousand (one per glyph
 * in PDFs that place every character); pdf.js builds an object per item, and eight pages are
 * read at once, so a page of text items laid out one by one (a flood, small on disk) would
 * otherwise cost hundreds of megabytes. Its items are read as pdf.js streams them, and the page
 * stops as soon as it has more.
 */
export const MAX_TEXT_ITEMS_PER_PAGE = 20_000;

interface TextItemLike {
  str?: string;
  transform?: number[];
  width?: number;
}

async function readPage(
  pdf: PDFDocumentProxy,
  pageNumber: number,
  meter: PdfWorkMeter,
): Promise<PageLayout> {
  const page = await pdf.getPage(pageNumber);
  try {
    const viewport = page.getViewport({ scale: 1 });
    const runs: TextRun[] = [];
    let items = 0;
    const reader = (
      page.streamTextContent() as ReadableStream<{ items: TextItemLike[] }>
    ).getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      items += chunk.value.items.length;
      let chars = 0;
      for (const item of chunk.value.items) {
        if (typeof item.str !== 'string' || !item.transform) continue;
        chars += item.str.length;
        const run = toDisplayRun(item.str, item.transform, item.width ?? 0, viewport.transform);
        if (run !== undefined) runs.push(run);
      }
      // A budget pdf.js spent stops pdf.js itself (readPages then refuses the batch); the
      // page's items and the document's characters are counted here, and stop it here.
      if (meter.exceeded !== undefined) continue;
      if (items > MAX_TEXT_ITEMS_PER_PAGE || !meter.charge('textChars', chars)) {
        // Not awaited: in workerd the cancellation can wait for a worker task that already
        // ended; destroying the document (extractPdfLayout) ends it in any case. pdf.js takes
        // only an Error as the reason.
        reader.cancel(new Error('the page needs more work than allowed')).catch(() => undefined);
        throw new PdfTextError('too_complex');
      }
    }
    const verdict = judgePage(runs.map((run) => run.text));
    const repaired = verdict.source.kind === 'repaired';
    const layout = layoutPage(
      repaired ? runs.map((run) => ({ ...run, text: verdict.repair(run.text) })) : runs,
      { page: pageNumber, width: viewport.width, height: viewport.height },
    );
    return { ...layout, source: verdict.source };
  } finally {
    page.cleanup();
  }
}

/**
 * A pdf.js text item in display coordinates (the page's rotation and crop box applied, y
 * downwards). A font's ToUnicode map may map a glyph to U+0000, which Postgres text cannot
 * hold, so those go. Text not running left to right on the display (vertical or turned text)
 * keeps its position, as a run of its own.
 */
function toDisplayRun(
  text: string,
  transform: number[],
  width: number,
  viewportTransform: number[],
): TextRun | undefined {
  const clean = text.replaceAll('\u0000', '');
  if (clean === '') return undefined;
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = viewportTransform;
  const [ta = 1, tb = 0, tc = 0, td = 1, tx = 0, ty = 0] = transform;
  const x = a * tx + c * ty + e;
  const y = b * tx + d * ty + f;
  // The item's own axes on the display: its x axis (the text direction) and y axis (its size).
  const dirX = a * ta + c * tb;
  const dirY = b * ta + d * tb;
  const size = Math.hypot(a * tc + c * td, b * tc + d * td);
  const scale = Math.hypot(ta, tb) || 1;
  const horizontal = Math.abs(dirY) <= Math.abs(dirX) * 0.1 && dirX > 0;
  return {
    text: clean,
    x,
    baseline: y,
    width: horizontal ? Math.abs(width) * (Math.hypot(dirX, dirY) / scale) : size * 0.5,
    size: size || Math.hypot(dirX, dirY),
  };
}

function asPdfTextError(error: unknown, meter: PdfWorkMeter): PdfTextError {
  // The meter first: pdf.js may report the error it was stopped with as a damaged file.
  if (meter.exceeded !== undefined) return new PdfTextError('too_complex', { cause: error });
  if (error instanceof PdfTextError) return error;
  if (isPasswordException(error)) {
    return new PdfTextError('encrypted', { cause: error });
  }
  return new PdfTextError('corrupt', { cause: error });
}

// pdf.js re-creates its exceptions when they cross from its (in-process) worker, so the name is
// what identifies them.
function isPasswordException(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'name' in error &&
    error.name === 'PasswordException'
  );
}
