import { AppError } from '#shared/errors/app-error';
import type { ErrorCode } from '#shared/errors/catalogue';
import type { DetectedFormat } from '../ingest/detect-format';
import type { PdfLayoutBatch, PdfLayoutOptions } from '../ingest/pdf-text';
import type { Section } from '../ingest/section-writer';
import { valueOf, type ReadResult } from '../reader/read-result';

/**
 * The ingestion's calls to the document reader (reader/document-reader.ts), a worker of its
 * own behind the READER service binding. A document that cannot be read throws its
 * DocumentError, as reading it here would have; a reader that fails (its isolate ran out of
 * memory or CPU on this document, or was restarted) throws `document_reader_failed`, which
 * the workflow retries like any step that failed, and gives up on after its last try.
 */
export async function readPdfLayout(
  reader: KnowledgeEnv['READER'],
  bytes: Uint8Array,
  options: Omit<PdfLayoutOptions, 'consumeBytes'>,
): Promise<PdfLayoutBatch> {
  return valueOf(await call(() => reader.pdfLayout(bytes, options)));
}

export async function readSections(
  reader: KnowledgeEnv['READER'],
  bytes: Uint8Array,
  detected: DetectedFormat,
  limits: { maxPages: number },
): Promise<Section[]> {
  return valueOf(await call(() => reader.sections(bytes, detected, limits)));
}

/** The reader answers (health): a reader that is down stops every ingest. */
export async function checkReader(reader: KnowledgeEnv['READER']) {
  const started = Date.now();
  try {
    const answer = (await reader.ping()) as unknown as Partial<Disposable>;
    answer[Symbol.dispose]?.();
  } catch (err) {
    throw new AppError('reader_unavailable', { cause: err });
  }
  return { ok: true as const, latency_ms: Date.now() - started };
}

async function call<T>(rpc: () => Promise<ReadResult<T>>): Promise<ReadResult<T>> {
  let result: ReadResult<T> & Partial<Disposable>;
  try {
    // The RPC stub's result type is a stub of the value; the value is what crosses.
    result = (await rpc()) as ReadResult<T> & Partial<Disposable>;
  } catch (err) {
    throw new AppError(READER_FAILED, { cause: err });
  }
  // An RPC result holds the call's resources until it is disposed of; the value is plain data.
  result[Symbol.dispose]?.();
  return result;
}

/** The error code of a reader that failed, recorded on the file while its step is retried. */
export const READER_FAILED = 'document_reader_failed' satisfies ErrorCode;
