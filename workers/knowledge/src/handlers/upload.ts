import { AppError } from '../../../../shared/errors/app-error';
import { createModelClient } from '../../../../shared/model/client';
import { knowledgeConfig } from '../config';
import { knowledgeDb, principalOf, type KnowledgeCall } from '../context';
import { EMBEDDING_COLUMN_DIMENSIONS, type FileRow } from '../db/schema';
import { chunkPages } from '../ingest/chunker';
import { embedTexts } from '../ingest/embed';
import { sanitiseFileName } from '../ingest/file-name';
import { extractPdfText, PdfTextError } from '../ingest/pdf-text';
import { sha256Hex } from '../ingest/sha256';
import { fileBySha, insertFile } from '../store/files';
import { deleteOriginal, putOriginal } from '../store/originals';

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-

const resultOf = (row: FileRow, duplicate: boolean) => ({
  id: row.id,
  name: row.name,
  pages: row.pages,
  chunks: row.chunks,
  duplicate,
});

/**
 * Validate → deduplicate → extract → chunk → embed → store. The database is opened only for
 * the short steps, never while the model works. The original goes to the bucket before the
 * transaction and is removed again if the transaction fails: nothing is left half-written.
 */
export async function upload({ file }: { file: File }, ctx: KnowledgeCall) {
  const started = Date.now();
  const config = knowledgeConfig(ctx.env);
  const user = principalOf(ctx);
  if (file.size > config.ingest.maxUploadBytes) throw tooLarge(config.ingest.maxUploadBytes);
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (!PDF_MAGIC.every((byte, i) => bytes[i] === byte))
    throw pdfFailure(new PdfTextError('not_pdf'));
  const sha256 = await sha256Hex(bytes);

  const kdb = knowledgeDb(ctx);
  const [existing] = await kdb.run(fileBySha(kdb.db, sha256));
  if (existing) return resultOf(existing, true);

  const text = await extractPdfText(bytes, { maxPages: config.ingest.maxPages }).catch((err) => {
    throw err instanceof PdfTextError ? pdfFailure(err) : err;
  });
  const pieces = chunkPages(text.pages, {
    chunkSize: config.ingest.chunkSize,
    overlap: config.ingest.chunkOverlap,
  });
  const { vectors, requests } = await embedTexts(
    createModelClient(config.model),
    config.model,
    pieces.map((piece) => piece.content),
    {
      limits: { inputs: config.ingest.batchInputs, tokens: config.ingest.batchTokens },
      columnDimensions: EMBEDDING_COLUMN_DIMENSIONS,
      signal: ctx.signal,
    },
  );

  const id = crypto.randomUUID();
  await putOriginal(ctx.env.FILES, id, bytes, sha256);
  try {
    const row = await kdb.transaction((tx) =>
      insertFile(tx, {
        id,
        name: sanitiseFileName(file.name),
        size: bytes.length,
        sha256,
        uploaderId: user.id,
        uploaderName: user.username,
        pages: text.pages,
        chunks: pieces.map((piece, i) => ({ ...piece, embedding: vectors[i]! })),
      }),
    );
    ctx.log.info('file ingested', {
      file_id: id,
      pages: row.pages,
      chunks: row.chunks,
      model_requests: requests,
      ms: Date.now() - started,
    });
    return resultOf(row, false);
  } catch (err) {
    await deleteOriginal(ctx.env.FILES, id);
    // Two uploads of the same bytes at once: the loser answers the winner's file.
    if (isUniqueViolation(err)) {
      const [winner] = await kdb.run(fileBySha(kdb.db, sha256));
      if (winner) return resultOf(winner, true);
    }
    throw err;
  }
}

export function tooLarge(limit: number) {
  return new AppError(413, 'file_too_large', `The file is larger than ${limit} bytes.`);
}

/** Not a PDF → 415; a PDF we cannot use → 422, with words the uploader can act on. */
function pdfFailure(err: PdfTextError) {
  const status = err.reason === 'not_pdf' ? 415 : 422;
  return new AppError(status, `pdf_${err.reason}`, err.message, { cause: err });
}

function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
