import { and, asc, count, eq, sql } from 'drizzle-orm';
import { tsvectorText } from '../ingest/search-terms';
import { chunks, filePages, files, manageFile } from '../db/schema';
import type { Queries } from './files';

/** A chunk as keepers read it: where it stands, what is searched, who corrected it. */
const chunkColumns = {
  id: chunks.id,
  index: chunks.index,
  page: chunks.page,
  section: filePages.label,
  headingPath: chunks.headingPath,
  text: chunks.content,
  textSource: filePages.source,
  enabled: chunks.enabled,
  editedBy: chunks.editedByName,
  editedAt: chunks.editedAt,
  originalText: chunks.originalContent,
  embeddingModel: chunks.embeddingModel,
};

export type ChunkRow = Awaited<ReturnType<typeof chunkById>>[number];

const withPage = and(eq(filePages.fileId, chunks.fileId), eq(filePages.page, chunks.page));

/** A file's chunks in the file's order, a page at a time (chunks_file_id_index_key). */
export const fileChunksPage = (db: Queries, fileId: string, limit: number, offset: number) =>
  db
    .select(chunkColumns)
    .from(chunks)
    .leftJoin(filePages, withPage)
    .where(eq(chunks.fileId, fileId))
    .orderBy(asc(chunks.index))
    .limit(limit)
    .offset(offset);

export const fileChunkCount = (db: Queries, fileId: string) =>
  db.select({ total: count() }).from(chunks).where(eq(chunks.fileId, fileId));

export const chunkById = (db: Queries, id: number) =>
  db.select(chunkColumns).from(chunks).leftJoin(filePages, withPage).where(eq(chunks.id, id));

/**
 * A chunk the caller can read, and whether they may change it (files_manage's rule, which
 * the chunks_edit policy applies too); none when they cannot read it.
 */
export const chunkForCaller = (db: Queries, id: number) =>
  db
    .select({ id: chunks.id, manageable: sql<boolean>`${manageFile(files)}` })
    .from(chunks)
    .innerJoin(files, eq(files.id, chunks.fileId))
    .where(eq(chunks.id, id));

export interface ChunkCorrection {
  text: string;
  embedding: number[];
  embeddingModel: string;
  editor: { id: string; username: string };
}

/**
 * A person's correction, in one statement: the new text with its vector and search terms (so
 * it is never half indexed), the text as ingested kept the first time, who and when. Touches no
 * row where the chunks_edit policy does not let the caller change it.
 */
export const correctChunk = (db: Queries, id: number, correction: ChunkCorrection) =>
  db
    .update(chunks)
    .set({
      content: correction.text,
      embedding: correction.embedding,
      embeddingModel: correction.embeddingModel,
      searchTerms: tsvectorText(correction.text),
      originalContent: sql`coalesce(${chunks.originalContent}, ${chunks.content})`,
      editedBy: correction.editor.id,
      editedByName: correction.editor.username,
      editedAt: new Date(),
    })
    .where(eq(chunks.id, id))
    .returning({ id: chunks.id });

/** Switches a chunk off or on; touches no row the caller may not change. */
export const switchChunk = (db: Queries, id: number, enabled: boolean) =>
  db.update(chunks).set({ enabled }).where(eq(chunks.id, id)).returning({ id: chunks.id });

/** Switches a file off or on; touches no row the caller may not manage (files_manage). */
export const switchFile = (db: Queries, id: string, enabled: boolean) =>
  db.update(files).set({ enabled }).where(eq(files.id, id)).returning({ id: files.id });
