import { EMBEDDING_COLUMN_DIMENSIONS } from '#shared/model/embedding-width';
import { sql, type AnyColumn } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgPolicy,
  pgRole,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
  vector,
} from 'drizzle-orm/pg-core';

/**
 * The role the workers' database login is a member of (migrations create it; the local stack
 * and `npm run db:migrate` give the login to it). Not the tables' owner and without BYPASSRLS:
 * every table holding document data answers it only the rows its policies allow, whatever
 * the statement asks for. The policies read who the statement acts for from what the
 * batch's first statement set (kbchat_session: the user; kbchat_ingest: one file's pipeline),
 * through the SECURITY DEFINER helpers of migration 0009 (kbchat_collections and friends).
 */
export const appRole = pgRole('kbchat_app').existing();

/** The built-in collection every user reads and uploads to: the spec's one shared knowledge base. */
export const DEFAULT_COLLECTION_ID = '00000000-0000-0000-0000-000000000000';

/** What a member may do: read and chat; also upload and delete; also manage members. */
export const COLLECTION_ROLES = ['viewer', 'editor', 'owner'] as const;
export type CollectionRole = (typeof COLLECTION_ROLES)[number];

// Policy building blocks. Each helper is wrapped in a scalar subquery so that Postgres runs it
// once per statement (an InitPlan), not once per row.
// (The cast makes `= any(...)` compare with the array's elements, not with a one-row subquery.)
const collectionsWhere = (min: CollectionRole) =>
  sql`(select kbchat_collections(${sql.raw(`'${min}'`)}))::uuid[]`;
const actingUser = sql`(select kbchat_user())`;
const ingestFile = sql`(select kbchat_ingest_file())`;
const sharedCollection = sql.raw(`'${DEFAULT_COLLECTION_ID}'::uuid`);
const reindexJob = sql`(select nullif(current_setting('kbchat.reindex_job', true), '')::uuid)`;
const actingSuperAdmin = sql`(select current_setting('kbchat.role', true)) = 'SUPER_ADMIN'`;
/** Who may start and follow a re-index: a collection's owners; everything's, a SUPER_ADMIN. */
const reindexOwner = (collectionId: AnyColumn) =>
  sql`(${collectionId} = any(${collectionsWhere('owner')}) or (${collectionId} is null and ${actingSuperAdmin}))`;

export { EMBEDDING_COLUMN_DIMENSIONS };

/** Where a file is on its way to the index: only `ready` files are ever searched. */
export const FILE_STATUSES = ['queued', 'processing', 'ready', 'failed'] as const;
export type FileStatus = (typeof FILE_STATUSES)[number];

/** A line of a PDF page's text where it stands: see file_pages.lines. */
export type PageLine = [
  start: number,
  end: number,
  left: number,
  top: number,
  right: number,
  bottom: number,
];

/** Where a page's text came from; see file_pages.source. */
export const PAGE_SOURCES = ['text_layer', 'repaired', 'ocr'] as const;
export type PageSourceKind = (typeof PAGE_SOURCES)[number];

/** The formats the service reads, detected from the bytes (ingest/detect-format.ts). */
export const FILE_FORMATS = ['pdf', 'text', 'markdown', 'html', 'docx'] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];

/**
 * One uploaded document, in one collection; every file records its uploader. A
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
    /**
     * PDF pages without a usable text layer (scans, garbled font maps), read by OCR: how many
     * once the pages are read, and how many of them OCR has read so far.
     */
    ocrPages: integer('ocr_pages').notNull().default(0),
    ocrPagesDone: integer('ocr_pages_done').notNull().default(0),
    /** Once the text is read: the OCR'd pages' mean confidence (0–1), and pages repaired. */
    ocrConfidence: real('ocr_confidence'),
    repairedPages: integer('repaired_pages').notNull().default(0),
    /** Chunks once known (text extracted); 0 before. */
    chunks: integer('chunks').notNull(),
    chunksDone: integer('chunks_done').notNull().default(0),
    /** Why a file failed: a stable code and a message the uploader can act on. */
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    /** The PDF work budget used so far, over all extraction steps (pdf-work-budget.ts). */
    decodedBytes: bigint('decoded_bytes', { mode: 'number' }).notNull().default(0),
    parsedBytes: bigint('parsed_bytes', { mode: 'number' }).notNull().default(0),
    textChars: bigint('text_chars', { mode: 'number' }).notNull().default(0),
    /** The workflow instance working on the file now. */
    workflowId: text('workflow_id'),
    /**
     * How many times the watchdog revived the ingest since a step last made progress: an ingest
     * that dies in the same place again and again (a document that crashes its parser) stops
     * after a few (kbchat_claim_stalled_files) instead of looping.
     */
    revivals: integer('revivals').notNull().default(0),
    /** The collection the file belongs to; its chunks follow it (chunks_file_fk, ON UPDATE CASCADE). */
    collectionId: uuid('collection_id')
      .notNull()
      .default(DEFAULT_COLLECTION_ID)
      .references(() => collections.id, { onDelete: 'cascade' }),
    uploaderId: uuid('uploader_id').notNull(),
    uploaderName: text('uploader_name').notNull(),
    /**
     * What the document says of itself (ingest/document-metadata/, or a person's correction):
     * its title, document number (文号), issuing bodies, dates and type; null (empty) where
     * it says nothing. `metadataOrigin` tells, per field set, `extracted` or `person`: ingest
     * never overwrites a person's value.
     */
    title: text('title'),
    docNumber: text('doc_number'),
    issuers: text('issuers')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    issuedOn: date('issued_on', { mode: 'string' }),
    effectiveOn: date('effective_on', { mode: 'string' }),
    expiresOn: date('expires_on', { mode: 'string' }),
    docType: text('doc_type'),
    metadataOrigin: jsonb('metadata_origin')
      .$type<Record<string, 'extracted' | 'person'>>()
      .notNull()
      .default({}),
    /** Switched off by a keeper: never searched, still listed; switched on again at once. */
    enabled: boolean('enabled').notNull().default(true),
    /**
     * Versions (`upload?replaces=`): every version of a document shares the first one's id as
     * `lineageId` (null on a first upload: its own id), counts `version` up, and names the
     * version it replaces in `replacesId`. The version searched is the one not superseded; a new
     * version supersedes the old (`supersededBy`, `supersededAt`) only once it is ready, in the
     * transaction that makes it ready.
     */
    lineageId: uuid('lineage_id'),
    version: integer('version').notNull().default(1),
    replacesId: uuid('replaces_id'),
    supersededBy: uuid('superseded_by'),
    supersededAt: timestamp('superseded_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Moved on by every step: a file in progress whose row stops moving is revived. */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The same bytes are stored once per collection: a second upload into it answers the first
  // file (duplicate). Per collection, so that `duplicate` says nothing of other collections.
  (t) => [
    uniqueIndex('files_collection_sha256_key').on(t.collectionId, t.sha256),
    // The target of the chunks' (file, collection) foreign key.
    unique('files_id_collection_key').on(t.id, t.collectionId),
    index('files_created_at_idx').on(t.createdAt),
    index('files_doc_number_idx').on(t.docNumber),
    index('files_lineage_idx').on(t.lineageId),
    // A user's stored bytes, summed by kbchat_user_storage_quota on every upload while limited.
    index('files_uploader_idx').on(t.uploaderId),
    // The files a search leaves out (not ready, switched off, superseded): few, read per search.
    index('files_not_searched_idx')
      .on(t.id)
      .where(sql`${t.status} <> 'ready' or not ${t.enabled} or ${t.supersededBy} is not null`),
    index('files_in_progress_idx')
      .on(t.updatedAt)
      .where(sql`${t.status} in ('queued', 'processing')`),
    check('files_status_check', sql`${t.status} in ('queued', 'processing', 'ready', 'failed')`),
    pgPolicy('files_read', {
      for: 'select',
      to: appRole,
      using: sql`${t.collectionId} = any(${collectionsWhere('viewer')}) or ${t.id} = ${ingestFile}`,
    }),
    pgPolicy('files_upload', {
      for: 'insert',
      to: appRole,
      withCheck: sql`${t.collectionId} = any(${collectionsWhere('editor')}) and ${t.uploaderId} = ${actingUser}`,
    }),
    // Editors manage a collection's files; in the shared collection, only their uploader (or a
    // SUPER_ADMIN, whom kbchat_collections makes owner of every collection) does.
    pgPolicy('files_manage', {
      for: 'update',
      to: appRole,
      using: sql`${manageFile(t)} or ${t.id} = ${ingestFile}`,
      withCheck: sql`${t.collectionId} = any(${collectionsWhere('editor')}) or ${t.id} = ${ingestFile}`,
    }),
    pgPolicy('files_delete', { for: 'delete', to: appRole, using: manageFile(t) }),
  ],
).enableRLS();

/** Whether the caller may delete, retry or move a file: the `files_manage` policy's rule. */
export function manageFile(t: { collectionId: AnyColumn; uploaderId: AnyColumn }) {
  return sql`(${t.collectionId} = any(${collectionsWhere('editor')}) and (${t.collectionId} <> ${sharedCollection} or ${t.uploaderId} = ${actingUser} or ${sharedCollection} = any(${collectionsWhere('owner')})))`;
}

/** files_manage's rule for a files row aliased `f` in a subquery (file_relations_manage). */
const manageFileAlias = sql.raw(
  `(f.collection_id = any((select kbchat_collections('editor'))::uuid[]) and (f.collection_id <> '${DEFAULT_COLLECTION_ID}'::uuid or f.uploader_id = (select kbchat_user()) or '${DEFAULT_COLLECTION_ID}'::uuid = any((select kbchat_collections('owner'))::uuid[])))`,
);

/** Rows that belong to one file: readable with the file, written only by its ingestion. */
function fileRowPolicies(prefix: string, fileId: AnyColumn) {
  return [
    pgPolicy(`${prefix}_read`, {
      for: 'select',
      to: appRole,
      using: sql`${fileId} in (select id from files)`,
    }),
    pgPolicy(`${prefix}_ingest`, {
      for: 'all',
      to: appRole,
      using: sql`${fileId} = ${ingestFile}`,
      withCheck: sql`${fileId} = ${ingestFile}`,
    }),
  ];
}

/**
 * A knowledge base of its own with its members; the built-in DEFAULT_COLLECTION_ID is the
 * shared one. Creating a collection makes its creator its owner (a trigger, migration 0010).
 */
export const collections = pgTable(
  'collections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** Null for the built-in shared collection. */
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    pgPolicy('collections_read', {
      for: 'select',
      to: appRole,
      using: sql`${t.id} = any(${collectionsWhere('viewer')})`,
    }),
    pgPolicy('collections_create', {
      for: 'insert',
      to: appRole,
      withCheck: sql`${t.createdBy} = ${actingUser}`,
    }),
    pgPolicy('collections_manage', {
      for: 'update',
      to: appRole,
      using: sql`${t.id} = any(${collectionsWhere('owner')})`,
    }),
    pgPolicy('collections_delete', {
      for: 'delete',
      to: appRole,
      using: sql`${t.id} = any(${collectionsWhere('owner')}) and ${t.id} <> ${sharedCollection}`,
    }),
  ],
).enableRLS();

/** Who may do what in a collection (the shared collection has no members: everyone may read and upload). */
export const collectionMembers = pgTable(
  'collection_members',
  {
    collectionId: uuid('collection_id')
      .notNull()
      .references(() => collections.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull(),
    /** As it was when the member was added (usernames never change). */
    username: text('username').notNull(),
    role: text('role').$type<CollectionRole>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.collectionId, t.userId] }),
    index('collection_members_user_idx').on(t.userId),
    check('collection_members_role_check', sql`${t.role} in ('viewer', 'editor', 'owner')`),
    pgPolicy('collection_members_read', {
      for: 'select',
      to: appRole,
      using: sql`${t.collectionId} = any(${collectionsWhere('viewer')})`,
    }),
    // A member may leave on their own (the last owner cannot: kbchat_keep_an_owner).
    pgPolicy('collection_members_leave', {
      for: 'delete',
      to: appRole,
      using: sql`${t.userId} = ${actingUser}`,
    }),
    pgPolicy('collection_members_manage', {
      for: 'all',
      to: appRole,
      using: sql`${t.collectionId} = any(${collectionsWhere('owner')}) and ${t.collectionId} <> ${sharedCollection}`,
      withCheck: sql`${t.collectionId} = any(${collectionsWhere('owner')}) and ${t.collectionId} <> ${sharedCollection}`,
    }),
  ],
).enableRLS();

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
    /**
     * Where a PDF page's text came from (ingest/text-source.ts): `text_layer`, `repaired` (its
     * text layer with `repairs` font-map faults mended) or `ocr` (with the recogniser's mean
     * `ocr_confidence`, 0–1). Null for formats without pages and pages stored before it.
     */
    source: text('source').$type<PageSourceKind>(),
    repairs: integer('repairs'),
    ocrConfidence: real('ocr_confidence'),
    /**
     * For PDF pages: the page's size in points, and where its text's lines stand on it, each
     * `[start, end, left, top, right, bottom]` (offsets into `text`, end exclusive; a rectangle
     * in points from the top-left corner, y down), from the text layer or OCR's boxes. What
     * the document viewer highlights a passage with (store/chunk-location.ts). Null for other
     * formats and for pages stored before it.
     */
    width: real('width'),
    height: real('height'),
    lines: jsonb('lines').$type<PageLine[]>(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.page] }), ...fileRowPolicies('file_pages', t.fileId)],
).enableRLS();

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
  (t) => [
    primaryKey({ columns: [t.fileId, t.page] }),
    ...fileRowPolicies('page_layouts', t.fileId),
  ],
).enableRLS();

/** Postgres full-text search's document type; drizzle has no built-in for it. */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export const chunks = pgTable(
  'chunks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    fileId: uuid('file_id').notNull(),
    /**
     * The file's collection, kept here so that the read policy is one comparison per row
     * (vector search filters the HNSW index scan's rows with it). The (file, collection)
     * foreign key keeps it the file's: moving a file moves its chunks.
     */
    collectionId: uuid('collection_id').notNull().default(DEFAULT_COLLECTION_ID),
    page: integer('page').notNull(),
    index: integer('index').notNull(),
    content: text('content').notNull(),
    /**
     * Where the chunk's text stands in its page's text (file_pages.text), UTF-16 offsets, end
     * exclusive. Null for chunks written before positions were stored.
     */
    charStart: integer('char_start'),
    charEnd: integer('char_end'),
    /**
     * The chunk's place in its document's own structure: chapter and article
     * (`第三章 财政支持 › 第十二条`), numbered sections or headings; null when it has none.
     */
    headingPath: text('heading_path'),
    embedding: vector('embedding', { dimensions: EMBEDDING_COLUMN_DIMENSIONS }).notNull(),
    /**
     * The chunk's keyword-search terms (ingest/search-terms.ts), written with the chunk. Null
     * only for a chunk written by a worker older than the column, until the migration step's
     * backfill (dev/stack/search-terms-backfill.ts) gives it its terms.
     */
    searchTerms: tsvector('search_terms'),
    /**
     * The embedding model that made `embedding`, `name@dimensions`: a search compares only
     * vectors of the model it embedded the query with. Null only for chunks written before it
     * was recorded, until the migration step stamps them with the model configured then.
     */
    embeddingModel: text('embedding_model'),
    /** Switched off by a keeper: never retrieved, still listed. */
    enabled: boolean('enabled').notNull().default(true),
    /** A person's correction of the text: who, when, and the text as ingested. */
    originalContent: text('original_content'),
    editedBy: uuid('edited_by'),
    editedByName: text('edited_by_name'),
    editedAt: timestamp('edited_at', { withTimezone: true }),
  },
  (t) => [
    // A chunk's position in its file, once: a retried step inserts nothing twice.
    uniqueIndex('chunks_file_id_index_key').on(t.fileId, t.index),
    // A page's passages (store/chat-context.ts, for each page a chat about chosen files gives):
    // without it each page would scan every chunk of its file.
    index('chunks_file_page_idx').on(t.fileId, t.page),
    // Used by `ORDER BY embedding <=> $q LIMIT k` (cosine distance, ascending).
    index('chunks_embedding_hnsw_idx').using('hnsw', t.embedding.op('vector_cosine_ops')),
    // Used by `search_terms @@ tsquery` (keyword search, store/search.ts).
    index('chunks_search_terms_idx')
      .using('gin', t.searchTerms)
      .with({ gin_pending_list_limit: 256 }),
    foreignKey({
      name: 'chunks_file_fk',
      columns: [t.fileId, t.collectionId],
      foreignColumns: [files.id, files.collectionId],
    })
      .onDelete('cascade')
      .onUpdate('cascade'),
    pgPolicy('chunks_read', {
      for: 'select',
      to: appRole,
      using: sql`${t.collectionId} = any(${collectionsWhere('viewer')}) or ${t.fileId} = ${ingestFile}`,
    }),
    pgPolicy('chunks_ingest', {
      for: 'all',
      to: appRole,
      using: sql`${t.fileId} = ${ingestFile}`,
      withCheck: sql`${t.fileId} = ${ingestFile}`,
    }),
    // Whoever may manage a file corrects its chunks and switches them off (files_manage's rule).
    pgPolicy('chunks_edit', {
      for: 'update',
      to: appRole,
      using: sql`${t.fileId} in (select f.id from files f where ${manageFileAlias})`,
      withCheck: sql`${t.fileId} in (select f.id from files f where ${manageFileAlias})`,
    }),
  ],
).enableRLS();

/**
 * A re-index's new vectors for a file's chunks, made batch by batch while the old vectors
 * serve; moved into `chunks` in one statement once the file's are all made, then deleted.
 */
export const chunkReembeddings = pgTable(
  'chunk_reembeddings',
  {
    chunkId: bigint('chunk_id', { mode: 'number' })
      .primaryKey()
      .references(() => chunks.id, { onDelete: 'cascade' }),
    fileId: uuid('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    embeddingModel: text('embedding_model').notNull(),
    embedding: vector('embedding', { dimensions: EMBEDDING_COLUMN_DIMENSIONS }).notNull(),
  },
  (t) => [
    index('chunk_reembeddings_file_idx').on(t.fileId),
    ...fileRowPolicies('chunk_reembeddings', t.fileId),
  ],
).enableRLS();

/**
 * A re-index of a collection (or, with no collection, of everything): the files that had
 * chunks of another model when it started, worked through in order by a workflow. Read by who
 * could start it (the collection's owners; a SUPER_ADMIN for everything); the workflow writes
 * its progress as the job (`kbchat.reindex_job`, set for its transaction).
 */
export const reindexJobs = pgTable(
  'reindex_jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    collectionId: uuid('collection_id').references(() => collections.id, {
      onDelete: 'cascade',
    }),
    embeddingModel: text('embedding_model').notNull(),
    status: text('status').$type<'running' | 'done' | 'failed'>().notNull().default('running'),
    fileIds: uuid('file_ids').array().notNull(),
    filesDone: integer('files_done').notNull().default(0),
    chunks: integer('chunks').notNull(),
    chunksDone: integer('chunks_done').notNull().default(0),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    workflowId: text('workflow_id'),
    createdBy: uuid('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('reindex_jobs_collection_idx').on(t.collectionId, t.createdAt),
    check('reindex_jobs_status_check', sql`${t.status} in ('running', 'done', 'failed')`),
    pgPolicy('reindex_jobs_owner', {
      for: 'all',
      to: appRole,
      using: sql`${reindexOwner(t.collectionId)}`,
      withCheck: sql`${reindexOwner(t.collectionId)}`,
    }),
    pgPolicy('reindex_jobs_workflow', {
      for: 'all',
      to: appRole,
      using: sql`${t.id} = ${reindexJob}`,
      withCheck: sql`${t.id} = ${reindexJob}`,
    }),
  ],
).enableRLS();

/**
 * A question a keeper expects a collection's search to answer from a file (and page): the
 * collection's own retrieval test set. Readers read it; editors and owners write it.
 */
export const retrievalTests = pgTable(
  'retrieval_tests',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    collectionId: uuid('collection_id')
      .notNull()
      .references(() => collections.id, { onDelete: 'cascade' }),
    question: text('question').notNull(),
    /** Kept when the file is deleted (the case then misses, and says so). */
    fileId: uuid('file_id').notNull(),
    page: integer('page'),
    createdBy: uuid('created_by').notNull(),
    createdByName: text('created_by_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('retrieval_tests_collection_idx').on(t.collectionId),
    pgPolicy('retrieval_tests_read', {
      for: 'select',
      to: appRole,
      using: sql`${t.collectionId} = any(${collectionsWhere('viewer')})`,
    }),
    pgPolicy('retrieval_tests_write', {
      for: 'insert',
      to: appRole,
      withCheck: sql`${t.collectionId} = any(${collectionsWhere('editor')}) and ${t.createdBy} = ${actingUser}`,
    }),
    pgPolicy('retrieval_tests_delete', {
      for: 'delete',
      to: appRole,
      using: sql`${t.collectionId} = any(${collectionsWhere('editor')})`,
    }),
  ],
).enableRLS();

/** How one document stands to another, said by the document that does it (`fileId`). */
export const RELATION_KINDS = ['amends', 'repeals', 'replaces', 'implements'] as const;
export type RelationKindName = (typeof RELATION_KINDS)[number];

/**
 * A file amends, repeals, replaces or implements another document: a file of the knowledge
 * base (`targetFileId`) or one its text only names (`targetDocNumber`, `targetTitle`), found
 * in the text at ingest or said by a person. Readable with the file; written by its ingestion
 * and by whoever may manage it (the policies of migration 0023).
 */
export const fileRelations = pgTable(
  'file_relations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    fileId: uuid('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    relation: text('relation').$type<RelationKindName>().notNull(),
    targetFileId: uuid('target_file_id').references(() => files.id, { onDelete: 'set null' }),
    targetDocNumber: text('target_doc_number'),
    targetTitle: text('target_title'),
    origin: text('origin').$type<'extracted' | 'person'>().notNull(),
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('file_relations_file_idx').on(t.fileId),
    index('file_relations_target_idx').on(t.targetFileId),
    check(
      'file_relations_relation_check',
      sql`${t.relation} in ('amends', 'repeals', 'replaces', 'implements')`,
    ),
    check('file_relations_origin_check', sql`${t.origin} in ('extracted', 'person')`),
    check(
      'file_relations_names_check',
      sql`${t.targetFileId} is not null or ${t.targetDocNumber} is not null or ${t.targetTitle} is not null`,
    ),
    pgPolicy('file_relations_read', {
      for: 'select',
      to: appRole,
      using: sql`${t.fileId} in (select id from files)`,
    }),
    pgPolicy('file_relations_ingest', {
      for: 'all',
      to: appRole,
      using: sql`${t.fileId} = ${ingestFile}`,
      withCheck: sql`${t.fileId} = ${ingestFile}`,
    }),
    // A person relates a file they may manage (files_manage's rule, through the files they can
    // update); the other file, when named, must be one they can read.
    pgPolicy('file_relations_manage', {
      for: 'all',
      to: appRole,
      using: sql`${t.fileId} in (select f.id from files f where ${manageFileAlias})`,
      withCheck: sql`${t.fileId} in (select f.id from files f where ${manageFileAlias}) and (${t.targetFileId} is null or ${t.targetFileId} in (select id from files))`,
    }),
  ],
).enableRLS();

export type FileRow = typeof files.$inferSelect;
export type CollectionRow = typeof collections.$inferSelect;
