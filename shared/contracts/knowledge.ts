import { z } from 'zod';
import { defineService, enumOf, fileDownload, fileParam, method } from '../service';
import { CollectionIds, FileIds, KnowledgeHealth, PageNumber, PageSource } from './common';
import {
  ChunkChange,
  EmbeddingStatus,
  FileChunk,
  FileChunks,
  FileSort,
  FileNow,
  FileStateQuery,
  FileVersion,
  ReindexJob,
  RetrievalTest,
  RetrievalTestInput,
  RetrievalTestRun,
} from './knowledge-upkeep';
import {
  DocumentFilters,
  DocumentMetadata,
  MetadataCorrection,
  RelationKind,
  Validity,
} from './document-metadata';

/** Where a file is on its way to the index; only `ready` files are searched. */
export const FileStatus = enumOf(['queued', 'processing', 'ready', 'failed']);
export const FileFormat = enumOf(['pdf', 'text', 'markdown', 'html', 'docx']);

/** Why a file failed: a stable code and a message the uploader can act on. */
export const FileError = z.object({ code: z.string(), message: z.string() });

/** A file's progress: pages read, then chunks indexed. */
export const FileProgress = z.object({
  id: z.uuid(),
  name: z.string(),
  status: FileStatus,
  /** Pages (sections, for formats without pages); 0 until known. */
  pages: z.number().int(),
  pages_done: z.number().int(),
  /** Chunks; 0 until the text is read. */
  chunks: z.number().int(),
  chunks_done: z.number().int(),
  /**
   * PDFs with pages that have no usable text layer (scans, garbled font maps): those pages are
   * read by OCR. `pages_done` moves while OCR reads; `confidence` (the recogniser's mean, 0–1)
   * is set once the text is read.
   */
  ocr: z
    .object({
      pages: z.number().int(),
      pages_done: z.number().int(),
      confidence: z.number().nullable(),
    })
    .optional(),
  /** PDF pages whose text layer had known font-map faults, repaired (e.g. `ꎬ` for `，`). */
  repaired_pages: z.number().int().optional(),
  /** Set when the file failed, and while a step waits to be retried (the last error). */
  error: FileError.optional(),
  /** What the document says of itself (title, 文号, issuers, dates, type), once it is read. */
  metadata: DocumentMetadata.optional(),
  /** Whether it still holds, and how it relates to other documents. */
  validity: Validity.optional(),
});

/** What a member may do: `viewer` reads and chats; `editor` also uploads, moves and deletes
 * files; `owner` also manages members, renames and deletes the collection. */
export const CollectionRole = enumOf(['viewer', 'editor', 'owner']);
/** A role as a request gives it: one of the three, nothing else. */
const CollectionRoleInput = z.enum(['viewer', 'editor', 'owner']);

/** A collection as a file, a search result or a source names it. */
export const CollectionRef = z.object({ id: z.uuid(), name: z.string() });

export const Collection = CollectionRef.extend({
  description: z.string(),
  /** The built-in collection every user reads and uploads to (where files go by default). */
  shared: z.boolean(),
  /** The caller's role in it. In the shared collection a user is `editor` of their own
   * uploads (they delete only those) and a SUPER_ADMIN `owner`; a SUPER_ADMIN owns all. */
  role: CollectionRole,
  /** Files in it (every status). */
  files: z.number().int(),
  created_at: z.string(),
});

export const CollectionMember = z.object({
  user_id: z.uuid(),
  username: z.string(),
  role: CollectionRole,
  added_at: z.string(),
});

const CollectionName = z.string().trim().min(1).max(100);
const CollectionDescription = z.string().trim().max(1000);

export const KnowledgeFile = FileProgress.extend({
  collection: CollectionRef,
  size: z.number().int(),
  format: FileFormat,
  uploader: z.object({ id: z.uuid(), username: z.string() }),
  created_at: z.string(),
  /** The extracted text, pages separated by form feeds; only with `with_content=true`. */
  content: z.string().optional(),
  /** False when switched off by a keeper: never searched, still listed and downloadable. */
  enabled: z.boolean().optional(),
  /** 1 for a first upload; a new version (`upload?replaces=`) counts up. */
  version: z.number().int().optional(),
  /** While a new version is on its way: the file it replaces once it is ready. */
  replaces: z.object({ id: z.uuid(), name: z.string() }).nullable().optional(),
});

export const UploadResult = z.object({
  id: z.uuid(),
  name: z.string(),
  /** `ready` unless the upload asked not to wait (then `queued` or `processing`). */
  status: FileStatus,
  pages: z.number().int(),
  chunks: z.number().int(),
  /** True when the same bytes were already stored: nothing was embedded again. */
  duplicate: z.boolean(),
});

/** How a query searches: both lists fused (the default), or one of them alone. */
export const SearchMode = z.enum(['hybrid', 'vector', 'keyword']);
/** The ranked lists a result can come from. */
export const SearchList = enumOf(['vector', 'keyword']);

export const QueryResult = z.object({
  id: z.number().int(),
  /** 1 − cosine distance, whichever list found the chunk (the chat threshold applies to it). */
  similarity: z.number(),
  content: z.string(),
  file_id: z.uuid(),
  file_name: z.string(),
  /**
   * What the document says it is, when it says (its 文号 and title; null: it does not): people
   * know documents by these, not by the names their files were uploaded under.
   */
  doc_number: z.string().nullable().optional(),
  title: z.string().nullable().optional(),
  /** The collection the file is in. */
  collection_id: z.uuid(),
  collection_name: z.string(),
  /** 1-based, as PDF viewers count; the section's number for formats without pages. */
  page: z.number().int(),
  /** For formats without pages: the section's heading path ("Eligibility › Income"), if any. */
  section: z.string().nullable(),
  /**
   * Where the page's text came from: its text layer, its text layer with font-map faults
   * repaired, or OCR of a scanned page (check OCR'd text against the original). Null for
   * formats without pages.
   */
  text_source: PageSource.nullable(),
  /**
   * The chunk's place in its document's own structure: its chapter and article
   * (`第三章 财政支持 › 第十二条`), or numbered sections and headings; null when it has none.
   */
  heading_path: z.string().nullable().optional(),
  /** Whether the chunk's document still holds (a repealed one is ranked below one in force). */
  validity: Validity.optional(),
  /** The lists that found the chunk: `vector` (embedding), `keyword` (full-text terms). */
  found_by: z.array(SearchList),
  /** The chunk's 1-based rank in each list that found it. */
  ranks: z.object({ vector: z.number().int().optional(), keyword: z.number().int().optional() }),
});

/** A rectangle on a page: [left, top, right, bottom] in PDF points, from the page's top-left
 * corner, y growing downwards (PDF.js's viewport at scale 1, the page's rotation applied). */
// An array of four rather than a tuple: Workers RPC's types widen tuples to arrays.
export const PageRect = z.array(z.number()).length(4);

/** A passage where it stands in its document: what the document viewer highlights. */
export const ChunkLocation = z.object({
  id: z.number().int(),
  file_id: z.uuid(),
  file_name: z.string(),
  format: FileFormat,
  collection_id: z.uuid(),
  collection_name: z.string().optional(),
  /** 1-based; the section's number for formats without pages. */
  page: z.number().int(),
  /** The file's pages (sections). */
  pages: z.number().int(),
  /** The passage as it was indexed. */
  text: z.string(),
  /** For formats without pages: the section's heading path, if any. */
  section: z.string().nullable(),
  /** The passage's chapter and article, or numbered section, when its document has them. */
  heading_path: z.string().nullable().optional(),
  text_source: PageSource.nullable(),
  /**
   * The passage's place in its page's text (`GET /moduleknowledge/page`'s `text`), in UTF-16
   * code units, end exclusive; null for passages indexed before positions were stored.
   */
  start: z.number().int().nullable(),
  end: z.number().int().nullable(),
  /** For PDFs: the passage's lines on the page (from the text layer, or OCR's boxes). */
  rects: z.array(PageRect),
  /** For PDFs: the page's size in points (the rectangles' frame); null otherwise. */
  page_width: z.number().nullable(),
  page_height: z.number().nullable(),
  /**
   * When a keeper last corrected the passage (null: as indexed), and whether it is switched on:
   * an answer's record says when its passage changed after the answer, or is off.
   */
  edited_at: z.string().nullable().optional(),
  enabled: z.boolean().optional(),
});

/** One page (a section, for formats without pages) of a file, as the document viewer shows it. */
export const FilePage = z.object({
  file_id: z.uuid(),
  file_name: z.string(),
  format: FileFormat,
  page: z.number().int(),
  pages: z.number().int(),
  section: z.string().nullable(),
  /** The page's text as it was indexed. */
  text: z.string(),
  text_source: PageSource.nullable(),
  page_width: z.number().nullable(),
  page_height: z.number().nullable(),
});

/** One page (or section) of a chosen file, as chat puts it into a prompt. */
export const ContextPage = z.object({
  file_id: z.uuid(),
  file_name: z.string(),
  page: z.number().int(),
  /** For formats without pages: the section's heading path, if any. */
  section: z.string().nullable(),
  /** Where the page's text came from (see QueryResult). */
  text_source: PageSource.nullable().optional(),
  /** The page's whole text; with `excerpt`, only its retrieved chunks, each whole. */
  text: z.string(),
  /** `retrieval` mode: the best similarity of a chunk on the page; null in `full` mode. */
  similarity: z.number().nullable(),
  /** `retrieval` mode: the page's most similar chunk (the passage a citation opens). */
  chunk_id: z.number().int().nullable().optional(),
  /** True when the whole page did not fit the budget and only its retrieved chunks are given. */
  excerpt: z.boolean(),
  /**
   * The page's passages (its chunks in use) where they stand in `text`, UTF-16 offsets, end
   * exclusive: a citation of the page opens the one that says what the answer took from it.
   * Passages stored before positions were recorded are left out.
   */
  passages: z
    .array(z.object({ chunk_id: z.number().int(), start: z.number().int(), end: z.number().int() }))
    .optional(),
});

/** The text of chosen files for a chat prompt: all of it when it fits, else the best pages. */
export const ChatContext = z.object({
  /** `full`: every page of the files; `retrieval`: the pages of the `top` nearest chunks. */
  mode: enumOf(['full', 'retrieval']),
  /** The chosen files that exist and are ready (others are left out), in the order asked. */
  files: z.array(
    z.object({
      id: z.uuid(),
      name: z.string(),
      /** The document's 文号 and title, when it says (as a search result's). */
      doc_number: z.string().nullable().optional(),
      title: z.string().nullable().optional(),
      pages: z.number().int(),
      collection: CollectionRef,
      /** Whether the document still holds (repealed, amended, expired), as a search result's. */
      validity: Validity.optional(),
    }),
  ),
  /** Characters of the whole text of those files. */
  total_chars: z.number().int(),
  /** `full`: in file and page order; `retrieval`: in file and page order too, chosen by similarity. */
  pages: z.array(ContextPage),
});

/** The knowledge module: documents into pgvector, similarity queries. */
export const knowledgeService = defineService({
  name: 'knowledge',
  prefix: '/moduleknowledge',
  doc: `Uploaded documents are parsed, chunked, embedded and stored in Postgres with pgvector.
Files live in collections: the shared one (every user reads it and uploads to it; where a
request that names no collection goes, as the spec's one knowledge base) and collections of
their own with members (viewer, editor, owner). Postgres itself (row-level security) answers
each user only what their collections allow; anything else answers 404.`,
  annotatedOnly: true,
  methods: {
    GetHealth: method({
      doc: `Liveness, a database round trip and a call to the document reader (the worker that
parses uploads); chat calls it over RPC. @role(guest) @grpc`,
      output: KnowledgeHealth,
    }),
    Upload: method({
      doc: `Uploads one document (multipart, one file part named \`file\`): PDF, Word (.docx),
HTML, Markdown or plain text, told apart by content. It is stored at once and ingested by a
durable workflow (text read page by page, chunked, embedded, indexed). By default the answer
comes when the file is ready, with the same result and errors as ever, so clients that expect
that keep working; with \`?async=true\` or \`Prefer: respond-async\` it comes at once, 202 with
the file's id and status (follow it with file_status or file_progress). The same bytes uploaded
again into the same collection answer the stored file with \`duplicate: true\`.
\`collection_id\` (a form field) chooses the collection (the shared one by default): an editor's or owner's;
one the caller cannot see → 404, only a viewer of → 403. Too large → 413; not a document the
service reads → 415; encrypted, damaged, too many pages or no text → 422; model endpoint down →
502.`,
      params: {
        file: fileParam(),
        collection_id: z.uuid().optional(),
        /**
         * Uploads a new version of this file (also \`?replaces=\` in the query): the old one
         * serves until the new one is ready, then they swap at once; a failed new version
         * leaves the old one serving. For whoever may manage the old file.
         */
        replaces: z.uuid().optional(),
      },
      output: UploadResult,
      // Every 413 it answers: the file over the size limit, the collection at its limit, the
      // uploader at their storage limit.
      errors: ['file_too_large', 'collection_limit_reached', 'storage_limit_reached'],
    }),
    GetFiles: method({
      doc: `A collection's files a page at a time, for keepers of hundreds: searched by name,
文号 or title (\`q\`, any part, case-insensitive), filtered by status and format, sorted by \`sort\`
(\`created_at\` newest first by default; \`name\`, \`status\`, \`size\`) in \`order\`.
Only current versions are listed (older ones are in file_versions). \`counts\` tells files
per status over the whole collection, whatever the filters.`,
      params: {
        collection_id: z.uuid(),
        q: z.string().trim().max(200).optional(),
        status: FileStatus.optional(),
        format: FileFormat.optional(),
        sort: FileSort.default('created_at'),
        order: z.enum(['asc', 'desc']).optional(),
        page: PageNumber.default(1),
        size: z.number().int().min(1).max(100).default(50),
      },
      output: z.object({
        items: z.array(KnowledgeFile),
        page: z.number().int(),
        size: z.number().int(),
        total: z.number().int(),
        counts: z.object({
          queued: z.number().int(),
          processing: z.number().int(),
          ready: z.number().int(),
          failed: z.number().int(),
        }),
      }),
    }),
    GetChunks: method({
      doc: `A file's chunks in order, a page at a time: page, heading path, the text as searched,
where its text came from, whether it is switched on, and who corrected it. For whoever may read
the file; disabled chunks are listed too.`,
      params: {
        file_id: z.uuid(),
        page: PageNumber.default(1),
        size: z.number().int().min(1).max(200).default(50),
      },
      output: FileChunks,
    }),
    PutChunk: method({
      doc: `Corrects a chunk: \`{id, text}\` replaces its text (embedded and indexed again before
the answer, so it is searched as corrected at once; the chunk remembers who corrected it, when,
and the text as ingested), \`{id, enabled}\` switches it off or on (a switched-off chunk is never
retrieved). For whoever may manage its file. Model endpoint down → 502, nothing changed.`,
      params: { body: ChunkChange },
      output: FileChunk,
    }),
    PutFileEnabled: method({
      doc: `Switches a whole file off or on: a switched-off file is never searched or chatted
with, stays listed and downloadable, and is switched on again at once. For whoever may manage it.`,
      params: { body: z.object({ id: z.uuid(), enabled: z.boolean() }) },
      output: KnowledgeFile,
    }),
    GetFileVersions: method({
      doc: `A file's history: every version uploaded with \`upload?replaces=\`, newest first, the
current one marked. Old versions stay downloadable (file download) and can be restored.`,
      params: { id: z.uuid() },
      output: z.array(FileVersion),
    }),
    PostFileStates: method({
      doc: `Files as they stand now, for whoever cited them before (chat, for the sources of a
stored answer; the document viewer): each one \`current\`, \`superseded\` by another version
(named, with when), \`deleted\` or \`unavailable\`, with its document's validity now. A file is
\`deleted\` when it is gone from the collection named with it and the caller can still read that
collection; one the caller cannot read is only \`unavailable\`. In the order asked. @grpc`,
      params: { body: z.object({ files: z.array(FileStateQuery).min(1).max(200) }) },
      output: z.array(FileNow.extend({ id: z.uuid() })),
    }),
    PostFileRestore: method({
      doc: `Makes an older ready version of a file the current one again, at once (the version
that was current goes into the history). For whoever may manage the file.`,
      params: { body: z.object({ id: z.uuid() }) },
      output: KnowledgeFile,
    }),
    GetRetrievalTests: method({
      doc: 'A collection’s saved retrieval questions with the file (and page) each expects.',
      params: { collection_id: z.uuid() },
      output: z.array(RetrievalTest),
    }),
    PostRetrievalTest: method({
      doc: `Saves a question with the file (and page) that should answer it, to test the
collection's retrieval with: its editors and owners. The file must be in the collection.`,
      params: { body: RetrievalTestInput },
      output: RetrievalTest,
    }),
    DeleteRetrievalTest: method({
      doc: 'Removes a saved retrieval question: the collection’s editors and owners.',
      params: { id: z.number().int().min(1) },
    }),
    PostRetrievalTestRun: method({
      doc: `Runs a collection's saved questions through search (\`mode\`, \`top\`) and tells where
each expected file (and page) ranked, the hit rate and the mean reciprocal rank. For anyone who
can read the collection.`,
      params: {
        body: z.object({
          collection_id: z.uuid(),
          mode: SearchMode.default('hybrid'),
          top: z.number().int().min(1).max(50).default(10),
        }),
      },
      output: RetrievalTestRun,
      errors: ['quota_exceeded'],
    }),
    GetEmbeddingStatus: method({
      doc: `Which embedding models made a collection's vectors, against the configured one: chunks
another model made are found by keyword search only until a re-index, which this also reports.`,
      params: { collection_id: z.uuid() },
      output: EmbeddingStatus,
    }),
    PostReindex: method({
      doc: `Starts (or answers the running) re-index: every chunk whose vector another model made
is embedded again with the configured one, in the background, paced so that search stays fast;
each file's old vectors serve until its new ones are all made, then are swapped at once.
\`collection_id\`: that collection (its owners); none: everything (a SUPER_ADMIN). Resumable: a
stopped re-index goes on from where it was.`,
      params: { body: z.object({ collection_id: z.uuid().optional() }) },
      output: ReindexJob,
    }),
    GetReindex: method({
      doc: 'A re-index job and its progress (for whoever could start it).',
      params: { id: z.uuid() },
      output: ReindexJob,
    }),
    GetFileStatus: method({
      doc: 'A file’s status and progress: pages read, chunks indexed, and why it failed.',
      params: { id: z.uuid() },
      output: FileProgress,
    }),
    GetFileProgress: method({
      doc: `A file’s progress as Server-Sent Events: its status now, then each change, until it
is ready or failed. @handler(streamResponse)`,
      params: { id: z.uuid() },
      stream: FileProgress,
    }),
    PostFileRetry: method({
      doc: 'Ingests a failed file again, from what is already done: its uploader or a SUPER_ADMIN.',
      params: { body: z.object({ id: z.uuid() }) },
      output: FileProgress,
    }),
    GetList: method({
      doc: `The files the caller can read, newest first; optionally only some files or collections
(ids joined by commas), only documents that match the document filters, optionally with their
text. @grpc`,
      params: {
        file_id: FileIds.optional(),
        collection_id: CollectionIds.optional(),
        with_content: z.boolean().optional(),
        ...DocumentFilters.shape,
      },
      output: z.array(KnowledgeFile),
    }),
    GetQuery: method({
      doc: `The chunks that best match \`text\`. \`mode=vector\`: by embedding, highest cosine
similarity first (the spec's query). \`mode=keyword\`: by full-text terms (words, codes and
numbers as typed, Chinese as characters and character pairs), rarest shared terms first.
\`mode=hybrid\` (the default): both lists fused by Reciprocal Rank Fusion (k = 60), so a chunk
that either list ranks high comes first. Every result carries its cosine \`similarity\`,
\`found_by\` (the lists that found it) and \`ranks\` (its rank in each). Over RPC this is the
spec's QueryReq: \`Text\` is \`text\`, \`Top\` is \`top\`. The original's generated clients send
\`retrieve_limit\` (an alias of \`top\`, which it overrides) and \`similarity_threshold\` (only
results at least this similar, inclusive); both are accepted. Every collection the caller can
read is searched unless \`collection_id\` (ids joined by commas) names some; each result names
its collection. Over HTTP a query is a search of the user's usage: its embedding tokens are
counted, and the daily token limit refuses it (429). @grpc`,
      params: {
        text: z.string().trim().min(1).max(8000),
        top: z.number().int().min(1).max(50).default(10),
        file_id: FileIds.optional(),
        collection_id: CollectionIds.optional(),
        mode: SearchMode.default('hybrid'),
        retrieve_limit: z.number().int().min(1).max(50).optional(),
        similarity_threshold: z.number().min(-1).max(1).optional(),
        ...DocumentFilters.shape,
      },
      output: z.array(QueryResult),
      // Over HTTP, the daily token limit (chat's calls over RPC are counted in chat).
      errors: ['quota_exceeded'],
    }),
    GetContext: method({
      doc: `The text of chosen files for a question, in one call: when the files' whole text
is at most \`max_chars\` characters, every page of them (\`mode: full\`); else the whole
pages holding the \`top\` chunks most similar to \`text\`, best first until \`max_chars\` is
reached (\`mode: retrieval\`). A page is never cut: one too long for what is left is replaced by
its retrieved chunks, or left out. Only ready files the caller can read are read (others are
left out, as files that do not exist). Chat calls it for a chat limited to files. @grpc`,
      params: {
        text: z.string().trim().min(1).max(8000),
        file_id: FileIds.refine((ids) => ids !== undefined, 'lists no file id'),
        max_chars: z.number().int().min(1).max(2_000_000).default(24_000),
        top: z.number().int().min(1).max(50).default(30),
      },
      output: ChatContext,
      errors: ['quota_exceeded'],
    }),
    GetChunk: method({
      doc: `A passage where it stands: its file, page, text, its place in the page's text and,
for PDFs, the rectangles of its lines on the page, for the document viewer to highlight. Under
the file's access rules: a passage of a file the caller cannot read → 404. @grpc`,
      params: { id: z.number().int().min(1) },
      output: ChunkLocation,
    }),
    GetPage: method({
      doc: `One page of a ready file as it was indexed (a section, for formats without pages):
its text, where the text came from and, for PDFs, the page's size. A page the file does not
have → 404. @grpc`,
      params: { file_id: z.uuid(), page: PageNumber },
      output: FilePage,
    }),
    DeleteFile: method({
      doc: `Deletes a file with its chunks and stored original (a file being processed stops):
an editor or owner of its collection; in the shared collection its uploader or a SUPER_ADMIN.
With \`collection_id\`, only a file in that collection.`,
      params: { id: z.uuid(), collection_id: z.uuid().optional() },
    }),
    PostFileMove: method({
      doc: `Moves a file, with its chunks, to another collection: for whoever may delete it from
its collection and is an editor or owner of the other. The same bytes already there → 409; the
other at its file or byte limit → 413 \`collection_limit_reached\` (the file stays where it was).`,
      params: { body: z.object({ id: z.uuid(), collection_id: z.uuid() }) },
      output: KnowledgeFile,
      errors: ['collection_limit_reached'],
    }),
    PutFileMetadata: method({
      doc: `Corrects what a document says of itself: only the fields sent change (null clears
one); each one changed is marked as set by a person, and ingesting again never overwrites it.
For whoever may manage the file (its uploader or an editor of its collection).`,
      params: { body: MetadataCorrection.extend({ id: z.uuid() }) },
      output: KnowledgeFile,
    }),
    PostFileRelation: method({
      doc: `Says that a file amends, repeals, replaces or implements another document: a file
of the knowledge base (\`target_file_id\`) or one only named (\`doc_number\`/\`title\`). For
whoever may manage the file; the other file must be readable by them.`,
      params: {
        body: z
          .object({
            file_id: z.uuid(),
            relation: RelationKind,
            target_file_id: z.uuid().optional(),
            doc_number: z.string().trim().min(1).max(100).optional(),
            title: z.string().trim().min(1).max(500).optional(),
          })
          .refine(
            (b) =>
              b.target_file_id !== undefined || b.doc_number !== undefined || b.title !== undefined,
            'names no document',
          ),
      },
      output: KnowledgeFile,
    }),
    DeleteFileRelation: method({
      doc: 'Removes a relation (detected or set by a person): for whoever may manage its file.',
      params: { id: z.number().int().min(1) },
    }),
    GetCollections: method({
      doc: 'The collections the caller can read, the shared one first, then by name.',
      output: z.array(Collection),
    }),
    GetCollection: method({
      doc: 'One collection the caller can read (else 404).',
      params: { id: z.uuid() },
      output: Collection,
    }),
    PostCollection: method({
      doc: 'Creates a collection; its creator is its owner.',
      params: {
        body: z.object({ name: CollectionName, description: CollectionDescription.default('') }),
      },
      output: Collection,
    }),
    PutCollection: method({
      doc: 'Renames a collection or changes its description: its owners (the shared one: a SUPER_ADMIN).',
      params: {
        body: z
          .object({
            id: z.uuid(),
            name: CollectionName.optional(),
            description: CollectionDescription.optional(),
          })
          .refine((b) => b.name !== undefined || b.description !== undefined, 'changes nothing'),
      },
      output: Collection,
    }),
    DeleteCollection: method({
      doc: `Deletes a collection with all its files: its owners. The shared collection cannot be
deleted (409).`,
      params: { id: z.uuid() },
    }),
    GetCollectionMembers: method({
      doc: `A collection's members and their roles, for anyone who can read it. The shared
collection has none: every user reads it.`,
      params: { id: z.uuid() },
      output: z.array(CollectionMember),
    }),
    PostCollectionMember: method({
      doc: `Adds a user (by username) to a collection with a role: its owners. Unknown or disabled
user → 404; already a member → 409; the shared collection has no members → 409.`,
      params: {
        body: z.object({
          collection_id: z.uuid(),
          username: z.string().trim().min(1).max(100),
          role: CollectionRoleInput,
        }),
      },
      output: CollectionMember,
    }),
    PutCollectionMember: method({
      doc: `Changes a member's role: the collection's owners. A collection keeps at least one
owner (409).`,
      params: {
        body: z.object({ collection_id: z.uuid(), user_id: z.uuid(), role: CollectionRoleInput }),
      },
      output: CollectionMember,
    }),
    DeleteCollectionMember: method({
      doc: `Removes a member: the collection's owners, or the member themselves (leaving). They
lose access at once. A collection keeps at least one owner (409).`,
      params: { collection_id: z.uuid(), user_id: z.uuid() },
    }),
    GetDownload: method({
      doc: 'The original file as uploaded. With `collection_id`, only a file in that collection.',
      params: { id: z.uuid(), collection_id: z.uuid().optional() },
      output: fileDownload({
        contentTypes: [
          'application/pdf',
          'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
          'text/html',
          'text/markdown',
          'text/plain',
        ],
      }),
    }),
  },
});
