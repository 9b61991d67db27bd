import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  vector,
} from 'drizzle-orm/pg-core';

/**
 * Width of the vector column. Embedding models with fewer dimensions are zero-padded to it
 * (which keeps cosine similarity exact); models with more are a configuration error.
 */
export const EMBEDDING_COLUMN_DIMENSIONS = 1536;

/** Where a file is on its way to the index: only `ready` files are ever searched. */
export const FILE_STATUSES = ['queued', 'processing', 'ready', 'failed'] as const;
export type FileStatus = (typeof FILE_STATUSES)[number];

/** The formats the service reads, detected from the bytes (ingest/detect-format.ts). */
export const FILE_FORMATS = ['pdf', 'text', 'markdown', 'html', 'docx'] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];

/**
 * One uploaded document. The knowledge base is shared; every file records its uploader. A
 * file is ingested by a durable workflow (pipeline/): its row tracks the progress.
 */
export const files = pgTable(
  'files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    format: text('format').$type<FileFormat>().notNull().default('pdf'),
    contentType: text('content_type').notNull().default('application/pdf'),
    status: text('status').$type<FileStatus>().notNull().default('ready'),
    /** Pages (sections, for formats without pages) once known; 0 before. */
    pages: integer('pages').notNull(),
    pagesDone: integer('pages_done').notNull().default(0),
    /** Chunks once known (text extracted); 0 before. */
    chunks: integer('chunks').notNull(),
    chunksDone: integer('chunks_done').notNull().default(0),
    /** Why a file failed: a stable code and a message the uploader can act on. */
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    /** The PDF work budget used so far, over all extraction steps (pdf-work-budget.ts). */
    decodedBytes: bigint('decoded_bytes', { mode: 'number' }).notNull().default(0),
    parsedBytes: bigint('parsed_bytes', { mode: 'number' }).notNull().default(0),
    /** The workflow instance working on the file now. */
    workflowId: text('workflow_id'),
    uploaderId: uuid('uploader_id').notNull(),
    uploaderName: text('uploader_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Moved on by every step: a file in progress whose row stops moving is revived. */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The same bytes are stored once: a second upload answers the first file (duplicate).
  (t) => [
    uniqueIndex('files_sha256_key').on(t.sha256),
    index('files_created_at_idx').on(t.createdAt),
    index('files_in_progress_idx')
      .on(t.updatedAt)
      .where(sql`${t.status} in ('queued', 'processing')`),
    check('files_status_check', sql`${t.status} in ('queued', 'processing', 'ready', 'failed')`),
  ],
);

/** The extracted text of each page, for `with_content` and re-chunking. */
export const filePages = pgTable(
  'file_pages',
  {
    fileId: uuid('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    page: integer('page').notNull(),
    text: text('text').notNull(),
    /** For formats without pages: the section's heading, cited instead of a page number. */
    label: text('label'),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.page] })],
);

/**
 * A PDF's page layouts between the extraction steps and the step that turns the whole
 * document into text (headers and footers need every page); emptied when that step is done.
 */
export const pageLayouts = pgTable(
  'page_layouts',
  {
    fileId: uuid('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    page: integer('page').notNull(),
    layout: jsonb('layout').notNull(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.page] })],
);

/** Postgres full-text search's document type; drizzle has no built-in for it. */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export const chunks = pgTable(
  'chunks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    fileId: uuid('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    page: integer('page').notNull(),
    index: integer('index').notNull(),
    content: text('content').notNull(),
    embedding: vector('embedding', { dimensions: EMBEDDING_COLUMN_DIMENSIONS }).notNull(),
    /**
     * The chunk's keyword-search terms (ingest/search-terms.ts), written with the chunk. Null
     * only for a chunk written by a worker older than the column, until the migration step's
     * backfill (dev/stack/search-terms-backfill.ts) gives it its terms.
     */
    searchTerms: tsvector('search_terms'),
  },
  (t) => [
    // A chunk's position in its file, once: a retried step inserts nothing twice.
    uniqueIndex('chunks_file_id_index_key').on(t.fileId, t.index),
    // Used by `ORDER BY embedding <=> $q LIMIT k` (cosine distance, ascending).
    index('chunks_embedding_hnsw_idx').using('hnsw', t.embedding.op('vector_cosine_ops')),
    // Used by `search_terms @@ tsquery` (keyword search, store/search.ts).
    index('chunks_search_terms_idx').using('gin', t.searchTerms),
  ],
);

export type FileRow = typeof files.$inferSelect;
