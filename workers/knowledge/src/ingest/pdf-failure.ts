import { errorDetail } from '#shared/errors/catalogue';

/**
 * Every way an uploaded PDF can fail, as a {@link PdfTextError} whose `reason` the upload route
 * maps to a status (`not_pdf` → 415, the others → 422) and whose message is safe to show.
 */

export type PdfFailureReason =
  | 'not_pdf'
  | 'encrypted'
  | 'corrupt'
  | 'too_many_pages'
  | 'too_complex'
  | 'no_text'
  | 'ocr_no_text';

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
    case 'too_many_pages':
      return details.pageCount !== undefined && details.maxPages !== undefined
        ? `The PDF has ${details.pageCount} pages; at most ${details.maxPages} are allowed. Split it into smaller documents.`
        : errorDetail('pdf_too_many_pages');
    default:
      return errorDetail(`pdf_${reason}`);
  }
}
