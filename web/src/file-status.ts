import { ERRORS, type ErrorCode, type ErrorEntry } from '#shared/errors/catalogue';
import type { FileProgress } from './api/services';

/**
 * Where a file is on its way to the index, as the page shows it. The service reports a status
 * and two counters (pages read, then chunks indexed); this turns them into one phase and one
 * bar that only moves forward.
 */
export type Phase =
  /** Stored, waiting for the ingestion to start. */
  | { kind: 'queued' }
  /** Reading the text; `total` is 0 until the page count is known. */
  | { kind: 'reading'; done: number; total: number; fraction: number | undefined }
  /** OCR reading the pages without a usable text layer (scans), after the others are read. */
  | { kind: 'ocr'; done: number; total: number; fraction: number }
  /** Embedding and storing the chunks. */
  | { kind: 'indexing'; done: number; total: number; fraction: number }
  | { kind: 'ready' }
  | { kind: 'failed' }
  /** A status this version of the app does not know (a newer service). */
  | { kind: 'unknown' };

/** The part of a file's progress the phase is read from (an upload's answer has less). */
export type ProgressLike = Pick<FileProgress, 'status' | 'pages' | 'chunks'> &
  Partial<Pick<FileProgress, 'pages_done' | 'chunks_done' | 'error' | 'ocr'>>;

/**
 * The bar is split in two halves, reading then indexing, so that it never jumps back when
 * the second counter starts. Reading is cheap next to embedding, but a long PDF is read in
 * many steps, and a bar that sits at 0 % while it is read looks stuck.
 */
const READING_SHARE = 0.5;

export function phaseOf(file: ProgressLike): Phase {
  switch (file.status) {
    case 'queued':
      return { kind: 'queued' };
    case 'ready':
      return { kind: 'ready' };
    case 'failed':
      return { kind: 'failed' };
    case 'processing': {
      const pagesDone = file.pages_done ?? 0;
      const chunksDone = file.chunks_done ?? 0;
      // Chunks are counted once all the text is read: from then on it is indexing.
      if (file.chunks > 0) {
        const part = Math.min(1, chunksDone / file.chunks);
        return {
          kind: 'indexing',
          done: chunksDone,
          total: file.chunks,
          fraction: READING_SHARE + (1 - READING_SHARE) * part,
        };
      }
      // Scanned pages are read by OCR once the text layer of every page is read: seconds a
      // page, most of the reading's time. The reading half of the bar is theirs then.
      const ocr = file.ocr;
      if (ocr && ocr.pages > 0 && pagesDone >= file.pages) {
        return {
          kind: 'ocr',
          done: ocr.pages_done,
          total: ocr.pages,
          fraction: READING_SHARE * Math.min(1, ocr.pages_done / ocr.pages),
        };
      }
      return {
        kind: 'reading',
        done: pagesDone,
        total: file.pages,
        fraction: file.pages > 0 ? READING_SHARE * Math.min(1, pagesDone / file.pages) : undefined,
      };
    }
    default:
      return { kind: 'unknown' };
  }
}

/** Still on its way: the page keeps asking about it. */
export const isInProgress = (file: Pick<FileProgress, 'status'>) =>
  file.status === 'queued' || file.status === 'processing';

/**
 * Only ready files that are switched on are searched, so only they can limit a question.
 * (`enabled` is missing from an older service's answer: on.)
 */
export const isSearchable = (file: Pick<FileProgress, 'status'> & { enabled?: boolean }) =>
  file.status === 'ready' && file.enabled !== false;

/**
 * Whether retrying a failed file can help: not for a failure of the document itself (the
 * catalogue's `documentFault`: the same bytes fail the same way). Anything else (the model, OCR
 * or reader unavailable, a PDF without text while OCR is off, an internal error, a code this
 * version does not know) may pass on another try.
 */
export const retryCanHelp = (file: Pick<FileProgress, 'error'>) => {
  const code = file.error?.code;
  const entry: ErrorEntry | undefined =
    code && Object.hasOwn(ERRORS, code) ? ERRORS[code as ErrorCode] : undefined;
  return !entry?.documentFault;
};
