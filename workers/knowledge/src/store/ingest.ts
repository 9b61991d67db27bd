import { and, asc, between, count, eq, sql } from 'drizzle-orm';
import { httpDatabase, type DatabaseSettings } from '#shared/db/database';
import type { PageLayout } from '../ingest/pdf-text';
import type { PageTextSource } from '../ingest/pdf-layout';
import { tsvectorText } from '../ingest/search-terms';
import * as schema from '../db/schema';
import {
  chunks,
  filePages,
  files,
  pageLayouts,
  type FileStatus,
  type PageLine,
} from '../db/schema';
import type { KnowledgeDb, Queries } from './files';

/**
 * The statements of the ingestion pipeline (pipeline/steps.ts). Each step's writes are
 * idempotent — upserts keyed by (file, page) and (file, chunk index) — so a step that is
 * retried, or run again after a restart, leaves the same rows as one that ran once.
 */

/** Statements stay a few MB: well inside what one HTTP request carries (10 MB). */
const BYTES_PER_STATEMENT = 3 * 1024 * 1024;

/**
 * The watchdog's claim (db/functions: kbchat_claim_stalled_files): files whose ingest stopped
 * moving, marked as looked after now; `gave_up` for those revived too often without progress,
 * which the claim failed. It acts for no user: the function is the one thing it may do to files
 * in general.
 */
export async function claimStalledFiles(
  database: DatabaseSettings,
  options: { staleSeconds: number; limit: number; maxRevivals: number },
) {
  const { rows } = await httpDatabase(database, schema).execute<{
    id: string;
    workflow_id: string | null;
    gave_up: boolean;
  }>(
    sql`select * from kbchat_claim_stalled_files(${options.staleSeconds}, ${options.limit}, ${options.maxRevivals})`,
  );
  return rows;
}

/** The workflow instance now working on the file (a revival replaced the one that ended). */
export const setWorkflow = (db: Queries, id: string, workflowId: string) =>
  db.update(files).set({ workflowId }).where(eq(files.id, id));

export const fileForIngest = (db: Queries, id: string) =>
  db.select().from(files).where(eq(files.id, id)).limit(1);

export interface Progress {
  status?: FileStatus;
  pages?: number;
  pagesDone?: number;
  chunks?: number;
  chunksDone?: number;
  ocrPages?: number;
  ocrPagesDone?: number;
  ocrConfidence?: number | null;
  repairedPages?: number;
  decodedBytes?: number;
  parsedBytes?: number;
  textChars?: number;
  errorCode?: string | null;
  errorMessage?: string | null;
  workflowId?: string;
}

/**
 * Moves a file's progress on (and its heartbeat, updated_at), unless it is already ready. Any
 * progress but a step's error (a step that failed and will be retried) counts as the ingest
 * moving: the watchdog's count of revivals without progress starts again.
 */
export const setProgress = (db: Queries, id: string, progress: Progress) =>
  db
    .update(files)
    .set({ ...progress, ...(madeProgress(progress) ? { revivals: 0 } : {}), updatedAt: new Date() })
    .where(and(eq(files.id, id), sql`${files.status} <> 'ready'`))
    .returning({ id: files.id });

const madeProgress = (progress: Progress) =>
  Object.keys(progress).some((key) => key !== 'errorCode' && key !== 'errorMessage');

export function storeLayouts(db: Queries, fileId: string, layouts: readonly PageLayout[]) {
  return groupsOf(layouts, (layout) => JSON.stringify(layout).length).map((group) =>
    db
      .insert(pageLayouts)
      .values(group.map((layout) => ({ fileId, page: layout.page, layout })))
      .onConflictDoUpdate({
        target: [pageLayouts.fileId, pageLayouts.page],
        set: { layout: sql`excluded.layout` },
      }),
  );
}

export const layoutsOf = (db: Queries, fileId: string) =>
  db
    .select({ layout: pageLayouts.layout })
    .from(pageLayouts)
    .where(eq(pageLayouts.fileId, fileId))
    .orderBy(asc(pageLayouts.page));

/** The pages whose text layer was judged unusable (text-source.ts): the ones OCR reads. */
export const pagesNeedingOcr = (db: Queries, fileId: string) =>
  db
    .select({ page: pageLayouts.page })
    .from(pageLayouts)
    .where(
      and(
        eq(pageLayouts.fileId, fileId),
        sql`${pageLayouts.layout} -> 'source' ->> 'needsOcr' is not null`,
      ),
    )
    .orderBy(asc(pageLayouts.page));

export const clearLayouts = (db: Queries, fileId: string) =>
  db.delete(pageLayouts).where(eq(pageLayouts.fileId, fileId));

export interface StoredPage {
  page: number;
  text: string;
  label: string | null;
  /** PDF pages: where the text came from. */
  source?: PageTextSource;
  /** PDF pages: the page's size in points and where its text's lines stand (file_pages.lines). */
  width?: number;
  height?: number;
  lines?: PageLine[];
}

export function storePages(db: Queries, fileId: string, pages: readonly StoredPage[]) {
  // A line is six numbers of JSON: about 50 bytes.
  const size = (page: StoredPage) => page.text.length * 3 + (page.lines?.length ?? 0) * 50;
  return groupsOf(pages, size).map((group) =>
    db
      .insert(filePages)
      .values(
        group.map(({ source, width, height, lines, ...page }) => ({
          fileId,
          ...page,
          ...sourceColumns(source),
          width: width ?? null,
          height: height ?? null,
          lines: lines ?? null,
        })),
      )
      .onConflictDoUpdate({
        target: [filePages.fileId, filePages.page],
        set: {
          text: sql`excluded.text`,
          label: sql`excluded.label`,
          source: sql`excluded.source`,
          repairs: sql`excluded.repairs`,
          ocrConfidence: sql`excluded.ocr_confidence`,
          width: sql`excluded.width`,
          height: sql`excluded.height`,
          lines: sql`excluded.lines`,
        },
      }),
  );
}

/** A page's source as file_pages columns; a page waiting for OCR that never got it is `text_layer`. */
function sourceColumns(source: PageTextSource | undefined) {
  if (!source) return { source: null, repairs: null, ocrConfidence: null };
  return {
    source: source.kind,
    repairs: source.kind === 'repaired' ? source.repairs : null,
    ocrConfidence: source.kind === 'ocr' ? source.confidence : null,
  };
}

/** The file's page texts, all of them or those from `range.first` to `range.last`. */
export const pagesOf = (db: Queries, fileId: string, range?: { first: number; last: number }) =>
  db
    .select({ page: filePages.page, text: filePages.text, label: filePages.label })
    .from(filePages)
    .where(
      and(
        eq(filePages.fileId, fileId),
        range ? between(filePages.page, range.first, range.last) : undefined,
      ),
    )
    .orderBy(asc(filePages.page));

export const storedPageCount = (db: Queries, fileId: string) =>
  db.select({ pages: count() }).from(filePages).where(eq(filePages.fileId, fileId));

export interface NewChunk {
  index: number;
  page: number;
  content: string;
  /** Where the chunk stands in its page's text (chunks.char_start, char_end). */
  charStart?: number;
  charEnd?: number;
  /** The chunk's heading path (chunks.heading_path), if its document has structure. */
  headingPath?: string | null;
  embedding: number[];
  /** The model that made `embedding` (`name@dimensions`, chunks.embedding_model). */
  embeddingModel: string;
}

// Each chunk row carries a 1,536-number vector (~15 KB of SQL text) and its search terms
// (for Chinese, a character and a bigram per character: up to ~16 bytes per character).
export function insertChunks(
  db: Queries,
  file: { id: string; collectionId: string },
  rows: readonly NewChunk[],
) {
  const size = (row: NewChunk) => row.content.length * 19 + row.embedding.length * 10;
  return groupsOf(rows, size).map((group) =>
    db
      .insert(chunks)
      .values(
        group.map((row) => ({
          ...row,
          fileId: file.id,
          // The file's collection as read in this step: a file moved meanwhile fails the
          // (file, collection) foreign key, and the retried step reads it again.
          collectionId: file.collectionId,
          searchTerms: tsvectorText(row.content),
        })),
      )
      .onConflictDoNothing({ target: [chunks.fileId, chunks.index] }),
  );
}

/** Runs statements built by the functions above as one batch (one round trip), if any. */
export async function runAll(
  kdb: KnowledgeDb,
  statements: readonly Parameters<KnowledgeDb['run']>[0][],
) {
  if (statements.length === 0) return;
  await kdb.batch(statements as unknown as Parameters<KnowledgeDb['batch']>[0]);
}

function groupsOf<T>(items: readonly T[], sizeOf: (item: T) => number): T[][] {
  const groups: T[][] = [];
  let group: T[] = [];
  let size = 0;
  for (const item of items) {
    const itemSize = sizeOf(item);
    if (group.length > 0 && size + itemSize > BYTES_PER_STATEMENT) {
      groups.push(group);
      group = [];
      size = 0;
    }
    group.push(item);
    size += itemSize;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

/**
 * A file's chunks stored so far, as a step stores them (pipeline/paced-inserts.ts): never moves
 * progress back (a retried step stores again what an earlier try stored), never a ready file.
 */
export const chunksStored = (db: Queries, id: string, done: number) =>
  db
    .update(files)
    .set({
      chunksDone: sql`greatest(${files.chunksDone}, ${done})`,
      revivals: 0,
      updatedAt: new Date(),
    })
    .where(and(eq(files.id, id), sql`${files.status} <> 'ready'`));
