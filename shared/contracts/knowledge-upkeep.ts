import { z } from 'zod';
import { enumOf } from '../service/enum';
import { PageNumber, PageSource } from './common';
import { Validity } from './document-metadata';

// What the keepers of a knowledge base see and change beyond upload and delete: a file's
// chunks (read, corrected, switched off), a file's versions, the saved questions a collection's
// retrieval is tested with, and the re-index that follows a change of embedding model. Declared
// here, used by knowledgeService (knowledge.ts).

/** Who changed something, and when. */
export const EditedBy = z.object({ id: z.uuid(), username: z.string() });

/** One chunk of a file, in the file's order: what the machine searches, as it searches it. */
export const FileChunk = z.object({
  id: z.number().int(),
  /** 0-based position in the file. */
  index: z.number().int(),
  /** 1-based; the section's number for formats without pages. */
  page: z.number().int(),
  /** For formats without pages: the section's heading path, if any. */
  section: z.string().nullable(),
  /** The chunk's chapter and article, or numbered section, when its document has them. */
  heading_path: z.string().nullable(),
  /** The text as searched (a person's correction, when it was edited). */
  text: z.string(),
  /** Where its page's text came from: text layer, repaired text layer, or OCR. */
  text_source: PageSource.nullable(),
  /** False when switched off: never retrieved, still listed, switched on again at once. */
  enabled: z.boolean(),
  /** The person who last corrected its text, and when; null while it is as ingested. */
  edited_by: z.string().nullable(),
  edited_at: z.string().nullable(),
  /** The text as ingested, when a person corrected it. */
  original_text: z.string().nullable(),
  /** The embedding model (`name@dimensions`) that made its vector. */
  embedding_model: z.string().nullable(),
});

export const FileChunks = z.object({
  file_id: z.uuid(),
  items: z.array(FileChunk),
  page: z.number().int(),
  size: z.number().int(),
  total: z.number().int(),
});

/** A correction: new text (re-embedded and re-indexed), or the chunk switched on or off. */
export const ChunkChange = z.union([
  z.object({ id: z.number().int().min(1), text: z.string().trim().min(1).max(20_000) }),
  z.object({ id: z.number().int().min(1), enabled: z.boolean() }),
]);

/** One version of a file: the file itself, the ones it replaced, or the one that replaced it. */
export const FileVersion = z.object({
  id: z.uuid(),
  name: z.string(),
  size: z.number().int(),
  status: enumOf(['queued', 'processing', 'ready', 'failed']),
  uploader: z.object({ id: z.uuid(), username: z.string() }),
  created_at: z.string(),
  /** 1 for the first upload, counting up. */
  version: z.number().int(),
  /** The version searched now (exactly one of a history, unless a new one is on its way). */
  current: z.boolean(),
  /** When a newer version replaced it (null for the current one and one on its way). */
  superseded_at: z.string().nullable(),
});

/**
 * A file as it stands now, for whoever cited it before (an answer's source, the document
 * viewer): `current` (still the version searched), `superseded` (a newer version, or an older
 * one restored, is searched instead: `current` names it), `deleted` (gone from its collection,
 * which the caller can still read), `unavailable` (the caller can no longer read it or its
 * collection, or it was not found and no collection was named).
 */
export const FileNow = z.object({
  state: enumOf(['current', 'superseded', 'deleted', 'unavailable']),
  /**
   * Whether the document holds now (the current version's, for a superseded file); absent for
   * a deleted or unavailable one.
   */
  validity: Validity.optional(),
  /**
   * The cited file's own version number (superseded only): above the current one's when an
   * older version was restored after it, so the current one is not newer.
   */
  version: z.number().int().optional(),
  /** When the file stopped being the current version (superseded only). */
  superseded_at: z.string().nullable().optional(),
  /** The version searched now (superseded only; absent when none is ready and readable). */
  current: z
    .object({ id: z.uuid(), name: z.string(), version: z.number().int() })
    .nullable()
    .optional(),
});

/** One file asked after, with the collection it was in when it was cited (if known). */
export const FileStateQuery = z.object({
  id: z.uuid(),
  /** Tells a deleted file (its collection still readable) from one no longer readable. */
  collection_id: z.uuid().optional(),
});

/** How the files list is sorted. */
export const FileSort = z.enum(['created_at', 'name', 'status', 'size']);

/** A question a keeper expects a collection's search to answer from a given file (and page). */
export const RetrievalTest = z.object({
  id: z.number().int(),
  collection_id: z.uuid(),
  question: z.string(),
  file_id: z.uuid(),
  /** The file's name, or null when it has been deleted since. */
  file_name: z.string().nullable(),
  /** The page expected (the section's number for formats without pages); null: any page. */
  page: z.number().int().nullable(),
  /** For formats without pages: the expected section's heading path, if it has one. */
  section: z.string().nullable(),
  created_by: z.string(),
  created_at: z.string(),
});

export const RetrievalTestInput = z.object({
  collection_id: z.uuid(),
  question: z.string().trim().min(1).max(2000),
  file_id: z.uuid(),
  page: PageNumber.nullable().optional(),
});

/** A collection's saved questions, run: where each expected passage ranked, hit rate and MRR. */
export const RetrievalTestRun = z.object({
  collection_id: z.uuid(),
  mode: z.enum(['hybrid', 'vector', 'keyword']),
  top: z.number().int(),
  cases: z.array(
    z.object({
      id: z.number().int(),
      question: z.string(),
      file_id: z.uuid(),
      page: z.number().int().nullable(),
      /** 1-based rank of the first result from the expected file (and page); null: not in top. */
      rank: z.number().int().nullable(),
      /** That result's similarity (null when missed). */
      similarity: z.number().nullable(),
    }),
  ),
  /** Share of cases found within `top`; 0 for no cases. */
  hit_rate: z.number(),
  /** Mean reciprocal rank (a miss counts 0). */
  mrr: z.number(),
});

/** A re-index: every chunk made by another model than the configured one is embedded again. */
export const ReindexJob = z.object({
  id: z.uuid(),
  /** Null: every collection. */
  collection_id: z.uuid().nullable(),
  /** The model (`name@dimensions`) the chunks are re-embedded with. */
  model: z.string(),
  status: enumOf(['running', 'done', 'failed']),
  files: z.number().int(),
  files_done: z.number().int(),
  chunks: z.number().int(),
  chunks_done: z.number().int(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** Which embedding models made a collection's vectors, against the one configured. */
export const EmbeddingStatus = z.object({
  collection_id: z.uuid(),
  /** The model queries are embedded with (`name@dimensions`). */
  configured: z.string(),
  /** Chunks per model that made them (null: made before models were recorded). */
  models: z.array(z.object({ model: z.string().nullable(), chunks: z.number().int() })),
  /** Chunks whose vectors another model made: found by keyword search only until re-indexed. */
  stale_chunks: z.number().int(),
  /** The latest re-index of the collection (or of everything), if any. */
  job: ReindexJob.nullable(),
});
