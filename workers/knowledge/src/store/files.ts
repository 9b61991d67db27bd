import { and, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { RequestDb } from '#shared/db/request-db';
import type * as schema from '../db/schema';
import {
  chunks,
  collections,
  filePages,
  files,
  manageFile,
  type PageSourceKind,
} from '../db/schema';

export type KnowledgeDb = RequestDb<typeof schema>;
/** Where statements are built: the HTTP database (batches) or a session's transaction. */
export type Queries = PgDatabase<PgQueryResultHKT, typeof schema>;

/** The file with these bytes in this collection (dedupe is per collection). */
export const fileBySha = (db: Queries, collectionId: string, sha256: string) =>
  db
    .select()
    .from(files)
    .where(and(eq(files.collectionId, collectionId), eq(files.sha256, sha256)))
    .limit(1);

export const fileById = (db: Queries, id: string) =>
  db.select().from(files).where(eq(files.id, id)).limit(1);

export const withCollection = {
  file: files,
  collectionName: collections.name,
  /** Whether the caller may delete, retry or move it (the files_manage policy's rule). */
  manageable: sql<boolean>`${manageFile(files)}`,
  /**
   * While a new version is on its way: the name of the version it replaces once ready (null
   * once it has: the old one is superseded then).
   */
  replacingName: sql<
    string | null
  >`(select r.name from files r where r.id = ${files.replacesId} and r.superseded_by is null)`,
};

/** A file the caller can read, with its collection's name; none when they cannot. */
export const fileForCaller = (db: Queries, id: string) =>
  db
    .select(withCollection)
    .from(files)
    .innerJoin(collections, eq(collections.id, files.collectionId))
    .where(eq(files.id, id))
    .limit(1);

export type CallerFile = Awaited<ReturnType<typeof fileForCaller>>[number];

/**
 * Current files only: a version superseded by a newer one is in the file's history alone.
 * `documents`: the document filters' condition on a files row `f` (search-filters.ts).
 */
export function listFiles(
  db: Queries,
  filter: { ids?: string[]; collectionIds?: string[]; documents?: SQL },
) {
  return db
    .select(withCollection)
    .from(files)
    .innerJoin(collections, eq(collections.id, files.collectionId))
    .where(
      and(
        isNull(files.supersededBy),
        filter.ids ? inArray(files.id, filter.ids) : undefined,
        filter.collectionIds ? inArray(files.collectionId, filter.collectionIds) : undefined,
        filter.documents
          ? sql`${files.id} in (select f.id from files f where ${filter.documents})`
          : undefined,
      ),
    )
    .orderBy(desc(files.createdAt), desc(files.id));
}

/**
 * Each file's text, pages joined by form feeds (the page break character). Many pages of text
 * can be more than an HTTP answer carries (10 MB): this read goes through a session.
 */
export async function fileContents(db: Queries, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      fileId: filePages.fileId,
      content: sql<string>`string_agg(${filePages.text}, E'\\f' order by ${filePages.page})`,
    })
    .from(filePages)
    .where(inArray(filePages.fileId, ids))
    .groupBy(filePages.fileId);
  return new Map(rows.map((r) => [r.fileId, r.content]));
}

/** Removes the file; its pages and chunks go with it (ON DELETE CASCADE). */
export const deleteFileRow = (db: Queries, id: string) =>
  db.delete(files).where(eq(files.id, id)).returning({ id: files.id });

export type ChunkMatch = {
  id: number;
  similarity: number;
  content: string;
  file_id: string;
  file_name: string;
  page: number;
  section: string | null;
  /** Where the page's text came from (file_pages.source); null for formats without pages. */
  text_source: PageSourceKind | null;
};

export interface NearestOptions {
  top: number;
  fileIds?: string[];
}

/**
 * Vector search alone, as the worker served it before hybrid search (store/search.ts): kept as
 * the benchmarks' reference statement (bench/run.ts, bench/paths). The inner query
 * orders by the distance operator ascending with a LIMIT, the only shape the HNSW index serves;
 * similarity is computed in the select list. Only files that are `ready` are searched (a file
 * is never found half-indexed), and only chunks switched on; those filters and a file filter
 * are applied to the index scan's rows, and iterative scans (pgvector 0.8, on for the
 * database) keep finding rows until `top` pass.
 */
export function nearestChunksQuery(vector: number[], options: NearestOptions) {
  const literal = `[${vector.join(',')}]`;
  const filter = options.fileIds
    ? sql`and ${chunks.fileId} in (${sql.join(
        options.fileIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`
    : sql``;
  return sql`
    select c.id, 1 - c.distance as similarity, c.content, c.file_id, f.name as file_name, c.page,
           p.label as section, p.source as text_source
    from (
      select ${chunks.id} as id, ${chunks.fileId} as file_id, ${chunks.page} as page,
             ${chunks.content} as content, ${chunks.embedding} <=> ${literal}::vector as distance
      from ${chunks}
      -- A per-row filter on the index scan (not a join the planner may turn into a sort).
      where (select f.status from ${files} f where f.id = ${chunks.fileId}) = 'ready'
        and ${chunks.enabled}
      ${filter}
      order by ${chunks.embedding} <=> ${literal}::vector
      limit ${options.top}
    ) c
    join ${files} f on f.id = c.file_id
    left join ${filePages} p on p.file_id = c.file_id and p.page = c.page
    order by c.distance, c.id`;
}

/** A failed file, queued again for a new workflow instance (a person's retry). */
export const requeueFile = (db: Queries, id: string, workflowId: string) =>
  db
    .update(files)
    .set({
      status: 'queued',
      errorCode: null,
      errorMessage: null,
      workflowId,
      // A retry is a person's decision: the watchdog's count of revivals starts again.
      revivals: 0,
      updatedAt: new Date(),
    })
    .where(eq(files.id, id))
    .returning();

/** A file, with its chunks (the (file, collection) foreign key cascades), into a collection. */
export const moveFile = (db: Queries, id: string, collectionId: string) =>
  db.update(files).set({ collectionId, updatedAt: new Date() }).where(eq(files.id, id)).returning();

/** A new file row, queued: the upload's original is stored already. */
export const insertFile = (db: Queries, row: typeof files.$inferInsert) =>
  db.insert(files).values(row).returning();
