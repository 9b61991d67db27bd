import { AppError } from '#shared/errors/app-error';
import { ERRORS, errorDetail, type ErrorCode } from '#shared/errors/catalogue';
import type { FileFormat } from '../db/schema';
import { DocumentTooComplex } from './document-work-budget';
import { DocxError } from './docx-text';
import { PdfTextError, type PdfFailureReason } from './pdf-failure';

/**
 * Why an uploaded document cannot be ingested, for every format: a stable code (`pdf_*` for
 * PDFs, as before; `document_*` for the others) and a message the uploader can act on. An
 * unsupported format is 415, anything else about the content 422.
 */
export type DocumentFailure =
  Exclude<PdfFailureReason, 'not_pdf'> | 'unsupported_format' | 'bad_encoding';

type DocumentFailureCode = Extract<
  ErrorCode,
  'unsupported_format' | `pdf_${string}` | `document_${string}`
>;

/** The catalogue's code for a failure: a PDF has its own words, but no text encoding to fail. */
function failureCode(reason: DocumentFailure, format: FileFormat | undefined): DocumentFailureCode {
  if (reason === 'unsupported_format') return reason;
  if (reason === 'ocr_no_text') return 'pdf_ocr_no_text';
  if (format === 'pdf' && reason !== 'bad_encoding') return `pdf_${reason}`;
  return `document_${reason}`;
}

export class DocumentError extends Error {
  readonly reason: DocumentFailure;
  readonly format: FileFormat | undefined;
  readonly code: DocumentFailureCode;
  /** The catalogue's status for the code: 415 for a format the service does not read, else 422. */
  readonly status: number;

  constructor(
    reason: DocumentFailure,
    format: FileFormat | undefined,
    message: string,
    cause?: unknown,
  ) {
    super(message, { cause });
    this.name = 'DocumentError';
    this.reason = reason;
    this.format = format;
    this.code = failureCode(reason, format);
    this.status = ERRORS[this.code].status;
  }

  toAppError(): AppError {
    return new AppError(this.code, { detail: this.message, cause: this });
  }
}

export const unsupportedFormat = () =>
  new DocumentError('unsupported_format', undefined, errorDetail('unsupported_format'));

const WHAT: Record<Exclude<FileFormat, 'pdf'>, string> = {
  text: 'The text file',
  markdown: 'The Markdown file',
  html: 'The HTML page',
  docx: 'The Word document',
};

/**
 * A failure of extraction, whatever the format's own error type. `format` names the document
 * for errors that do not carry it (a spent work budget).
 */
export function documentErrorOf(
  err: unknown,
  maxPages: number,
  format?: Exclude<FileFormat, 'pdf'>,
): unknown {
  if (err instanceof DocumentError) return err;
  if (err instanceof DocumentTooComplex && format !== undefined) {
    return new DocumentError('too_complex', format, tooComplex(format, err), err);
  }
  if (err instanceof PdfTextError) {
    return err.reason === 'not_pdf'
      ? unsupportedFormat()
      : new DocumentError(err.reason, 'pdf', err.message, err);
  }
  if (err instanceof DocxError) {
    return new DocumentError(err.reason, 'docx', describe(err.reason, 'docx', maxPages), err);
  }
  return err;
}

export function describe(
  reason: Exclude<DocumentFailure, 'unsupported_format'>,
  format: Exclude<FileFormat, 'pdf'>,
  maxPages: number,
  sections?: number,
): string {
  const what = WHAT[format];
  switch (reason) {
    case 'corrupt':
      return `${what} could not be read: it is damaged or incomplete. Save or export it again and retry.`;
    case 'too_complex':
      return `${what} needs more work to read than allowed. Save it again without embedded objects, or split it.`;
    case 'no_text':
    case 'ocr_no_text':
      return `${what} contains no text.`;
    case 'too_many_pages':
      return `${what} has ${sections ?? 'more'} sections of text; at most ${maxPages} are allowed. Split it into smaller documents.`;
    case 'bad_encoding':
      return `${what} is not valid text in UTF-8, UTF-16 or GB18030. Save it as UTF-8 and upload it again.`;
    case 'encrypted':
      return `${what} is password-protected. Remove the password and upload it again.`;
  }
}

const WORK: Record<DocumentTooComplex['work'], (limit: string) => string> = {
  elements: (limit) => `it has more than ${limit} elements (tags)`,
  blocks: (limit) => `it has more than ${limit} paragraphs`,
  textChars: (limit) => `it has more than ${limit} characters of text`,
  depth: (limit) => `its content is nested more than ${limit} levels deep`,
  inflatedBytes: (limit) => `it unpacks to more than ${limit} bytes`,
};

const SMALLER: Record<Exclude<FileFormat, 'pdf'>, string> = {
  docx: 'Split it into smaller documents, or save it as PDF and upload that.',
  html: 'Split it into smaller pages, or save it as PDF or plain text and upload that.',
  markdown: 'Split it into smaller documents.',
  text: 'Split it into smaller documents.',
};

/** Which budget a document spent, in words the uploader can act on. */
function tooComplex(format: Exclude<FileFormat, 'pdf'>, err: DocumentTooComplex): string {
  const limit = err.limit.toLocaleString('en-US');
  return `${WHAT[format]} is too large or too complex to read: ${WORK[err.work](limit)}. ${SMALLER[format]}`;
}
