import type { FileFormat } from '../db/schema';
import { DocumentError, documentErrorOf, type DocumentFailure } from '../ingest/document-error';

/**
 * What the document reader answers over RPC: the value, or why the document cannot be read.
 * A failure of the document travels as data, typed, because an error thrown across a service
 * binding arrives as a plain Error (its class and fields are lost); a thrown error then means
 * only that the reader itself failed (its isolate ran out of memory or time, or was restarted).
 */
export type ReadResult<T> = { ok: true; value: T } | { ok: false; failure: ReadFailure };

export interface ReadFailure {
  reason: DocumentFailure;
  format: FileFormat | undefined;
  message: string;
}

/** The reader's side: runs the work, and answers a document's failure as data. */
export async function readResult<T>(
  work: () => Promise<T>,
  context: { maxPages: number; format?: Exclude<FileFormat, 'pdf'> },
): Promise<ReadResult<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (err) {
    const failure = documentErrorOf(err, context.maxPages, context.format);
    if (!(failure instanceof DocumentError)) throw err;
    return {
      ok: false,
      failure: { reason: failure.reason, format: failure.format, message: failure.message },
    };
  }
}

/** The caller's side: the value, or the document's failure thrown as the DocumentError it was. */
export function valueOf<T>(result: ReadResult<T>): T {
  if (result.ok) return result.value;
  const { reason, format, message } = result.failure;
  throw new DocumentError(reason, format, message);
}
