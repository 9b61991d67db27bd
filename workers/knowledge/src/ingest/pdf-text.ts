import { getResolvedPDFJS } from 'unpdf';
import type { PDFDocumentLoadingTask, PDFDocumentProxy } from 'unpdf/pdfjs';

/**
 * Text of an uploaded PDF, page by page, with every way a bad upload can fail reported as a
 * {@link PdfTextError} whose `reason` the upload route maps to a status (`not_pdf` → 415, the
 * others → 422) and whose message is safe to show.
 */

export type PdfFailureReason = 'not_pdf' | 'encrypted' | 'corrupt' | 'too_many_pages' | 'no_text';

export interface PdfLimits {
  /** Documents with more pages are refused before any page is read. */
  maxPages: number;
}

export interface PdfText {
  /** Text of each page as pdf.js lays it out (line breaks kept); index 0 is page 1. */
  pages: string[];
  pageCount: number;
}

/** A PDF the service cannot take. `message` is user-facing; the pdf.js error is the `cause`. */
export class PdfTextError extends Error {
  readonly reason: PdfFailureReason;
  /** Set for `too_many_pages`. */
  readonly pageCount: number | undefined;
  /** Set for `too_many_pages`. */
  readonly maxPages: number | undefined;

  constructor(
    reason: PdfFailureReason,
    options: { cause?: unknown; pageCount?: number; maxPages?: number } = {},
  ) {
    super(describePdfFailure(reason, options), { cause: options.cause });
    this.name = 'PdfTextError';
    this.reason = reason;
    this.pageCount = options.pageCount;
    this.maxPages = options.maxPages;
  }
}

/** A message for the person who uploaded the file: what is wrong and what they can do. */
export function describePdfFailure(
  reason: PdfFailureReason,
  details: { pageCount?: number; maxPages?: number } = {},
): string {
  switch (reason) {
    case 'not_pdf':
      return 'The file is not a PDF document. Only PDF files can be uploaded.';
    case 'encrypted':
      return 'The PDF is password-protected. Remove the password (for example by printing it to a new PDF) and upload it again.';
    case 'corrupt':
      return 'The PDF could not be read: it is damaged or incomplete. Download or export it again and retry.';
    case 'too_many_pages':
      return details.pageCount !== undefined && details.maxPages !== undefined
        ? `The PDF has ${details.pageCount} pages; at most ${details.maxPages} are allowed. Split it into smaller documents.`
        : 'The PDF has more pages than allowed. Split it into smaller documents.';
    case 'no_text':
      return 'The PDF contains no text that can be extracted, for example because it is a scan. Upload a PDF with selectable text, or run text recognition (OCR) on it first.';
  }
}

const PAGES_IN_FLIGHT = 8;

const PDF_SIGNATURE = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"

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
 * Reads the text of every page. Throws only {@link PdfTextError} for bad input.
 *
 * `bytes` is copied before parsing: pdf.js takes ownership of (detaches) the buffer it is given,
 * and the caller usually still needs the bytes to store or hash them.
 */
export async function extractPdfText(bytes: Uint8Array, limits: PdfLimits): Promise<PdfText> {
  assertLimits(limits);
  if (!hasPdfSignature(bytes)) throw new PdfTextError('not_pdf');
  // Outside the try: pdf.js failing to load is the service's fault, not the file's.
  const { getDocument } = await getResolvedPDFJS();
  let loadingTask: PDFDocumentLoadingTask | undefined;
  try {
    loadingTask = getDocument({ data: bytes.slice(), ...PDFJS_OPTIONS });
    const pdf = await loadingTask.promise;
    if (pdf.numPages > limits.maxPages) {
      throw new PdfTextError('too_many_pages', {
        pageCount: pdf.numPages,
        maxPages: limits.maxPages,
      });
    }
    const pages = await readPages(pdf);
    if (!pages.some(hasText)) throw new PdfTextError('no_text');
    return { pages, pageCount: pdf.numPages };
  } catch (error) {
    throw asPdfTextError(error);
  } finally {
    // Destroying the loading task also releases a document that failed half-way through
    // opening (a password prompt), which a PDFDocumentProxy could not. A failure to release
    // must not replace the answer.
    await loadingTask?.destroy().catch(() => undefined);
  }
}

function assertLimits(limits: PdfLimits): void {
  if (!Number.isInteger(limits.maxPages) || limits.maxPages < 1) {
    throw new RangeError(`maxPages must be a positive integer, got ${limits.maxPages}`);
  }
}

function hasPdfSignature(bytes: Uint8Array): boolean {
  return PDF_SIGNATURE.every((byte, index) => bytes[index] === byte);
}

/**
 * A few pages at a time: requests in flight overlap pdf.js's message round trips (10–20 %
 * faster than one by one here), while the bound keeps a long document's parsed pages from all
 * being held at once.
 */
async function readPages(pdf: PDFDocumentProxy): Promise<string[]> {
  const pages: string[] = [];
  for (let first = 1; first <= pdf.numPages; first += PAGES_IN_FLIGHT) {
    const last = Math.min(first + PAGES_IN_FLIGHT - 1, pdf.numPages);
    const batch = Array.from({ length: last - first + 1 }, (_, offset) => first + offset);
    pages.push(...(await Promise.all(batch.map((pageNumber) => readPage(pdf, pageNumber)))));
  }
  return pages;
}

async function readPage(pdf: PDFDocumentProxy, pageNumber: number): Promise<string> {
  const page = await pdf.getPage(pageNumber);
  try {
    const content = await page.getTextContent();
    let text = '';
    for (const item of content.items) {
      if ('str' in item) text += item.hasEOL ? `${item.str}\n` : item.str;
    }
    // A font's ToUnicode map may map a glyph to U+0000, which Postgres text cannot hold.
    return text.replaceAll('\u0000', '');
  } finally {
    page.cleanup();
  }
}

function hasText(page: string): boolean {
  return /\S/u.test(page);
}

function asPdfTextError(error: unknown): PdfTextError {
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
