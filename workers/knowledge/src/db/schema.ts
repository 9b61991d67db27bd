import {
  bigserial,
  index,
  integer,
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

/** One uploaded PDF. The knowledge base is shared; every file records its uploader. */
export const files = pgTable(
  'files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    pages: integer('pages').notNull(),
    chunks: integer('chunks').notNull(),
    uploaderId: uuid('uploader_id').notNull(),
    uploaderName: text('uploader_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The same bytes are stored once: a second upload answers the first file (duplicate).
  (t) => [
    uniqueIndex('files_sha256_key').on(t.sha256),
    index('files_created_at_idx').on(t.createdAt),
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
  },
  (t) => [primaryKey({ columns: [t.fileId, t.page] })],
);

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
  },
  (t) => [
    index('chunks_file_id_idx').on(t.fileId),
    // Used by `ORDER BY embedding <=> $q LIMIT k` (cosine distance, ascending).
    index('chunks_embedding_hnsw_idx').using('hnsw', t.embedding.op('vector_cosine_ops')),
  ],
);

export type FileRow = typeof files.$inferSelect;
