import type { FileRow } from '../db/schema';
import type { FileValidity } from './metadata';

/**
 * What clients see of a file's progress, with what the document says of itself and, where the
 * caller worked it out (file_status, the list), whether it still holds.
 */
export const progressView = (row: FileRow, validity?: FileValidity) => ({
  id: row.id,
  name: row.name,
  status: row.status,
  pages: row.pages,
  pages_done: row.pagesDone,
  chunks: row.chunks,
  chunks_done: row.chunksDone,
  ...textSources(row),
  ...(row.errorCode ? { error: { code: row.errorCode, message: row.errorMessage ?? '' } } : {}),
  metadata: metadataView(row),
  ...(validity ? { validity } : {}),
});

/** What the document says of itself, and who set each field (extracted, or a person). */
export const metadataView = (row: FileRow) => ({
  title: row.title,
  doc_number: row.docNumber,
  issuers: row.issuers,
  issued_on: row.issuedOn,
  effective_on: row.effectiveOn,
  expires_on: row.expiresOn,
  doc_type: row.docType,
  origin: row.metadataOrigin,
});

/**
 * What clients see of a file in the list. `replacingName` is the name of the file this one
 * replaces once it is ready (store/files.ts `replacingName`): null when it replaces none, or
 * has replaced it already.
 */
export const fileView = (
  row: FileRow,
  collectionName: string,
  content?: string,
  validity?: FileValidity,
  replacingName?: string | null,
) => ({
  ...progressView(row, validity),
  collection: { id: row.collectionId, name: collectionName },
  size: row.size,
  format: row.format,
  uploader: { id: row.uploaderId, username: row.uploaderName },
  created_at: row.createdAt.toISOString(),
  enabled: row.enabled,
  version: row.version,
  replaces: row.replacesId && replacingName ? { id: row.replacesId, name: replacingName } : null,
  ...(content === undefined ? {} : { content }),
});

/** A file as the list statements select it (store/files.ts withCollection). */
export const listedFileView = (
  row: { file: FileRow; collectionName: string; replacingName: string | null },
  content?: string,
  validity?: FileValidity,
) => fileView(row.file, row.collectionName, content, validity, row.replacingName);

/** What an upload answers. */
export const uploadView = (row: FileRow, duplicate: boolean) => ({
  id: row.id,
  name: row.name,
  status: row.status,
  pages: row.pages,
  chunks: row.chunks,
  duplicate,
});

/**
 * Where a PDF's text came from, once anything but its text layer is involved: pages read by
 * OCR (and, while it reads, how many so far; once read, its mean confidence), pages whose
 * font-map faults were repaired.
 */
function textSources(row: FileRow) {
  return {
    ...(row.ocrPages > 0
      ? {
          ocr: {
            pages: row.ocrPages,
            pages_done: row.ocrPagesDone,
            confidence: row.ocrConfidence,
          },
        }
      : {}),
    ...(row.repairedPages > 0 ? { repaired_pages: row.repairedPages } : {}),
  };
}
