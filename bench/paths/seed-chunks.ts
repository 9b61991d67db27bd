// Seeds the isolated stack's database with generated files and chunks, fast: the chunk texts
// of bench/corpus.ts, embedded in this process with the offline model's own function (the
// vectors its HTTP endpoint would answer, float32 as they travel), inserted with SQL in
// batches. The rows are what an upload writes (files, file_pages, chunks as in migrations/),
// owned by a real user, so that queries join them and lists show them as they show uploads.
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { embedText } from '../../dev/stack/offline-model/lexical.ts';
import { configuredEmbeddingModel } from '../../dev/stack/embedding-model.ts';
import { makeCorpus, type CorpusChunk } from '../corpus.ts';
import { loadKnowledgeStore } from '../nearest-chunks-query.ts';

const DIMENSIONS = 1536;
const CHUNKS_PER_FILE = 50;
const ROWS_PER_INSERT = 250;
const HNSW_INDEX = 'chunks_embedding_hnsw_idx';

export interface SeededCorpus {
  files: number;
  chunks: CorpusChunk[];
  words: string[];
  fileIds: string[];
  embed_s: number;
  insert_s: number;
  index_build_s: number;
  analyze_s: number;
}

/**
 * The HNSW index is dropped for the load and built again from its own definition: inserting
 * into it row by row ran at ~90 rows/s here (2,000 rows in 23 s), a bulk build ~10× faster.
 */
export async function seedChunks(
  db: pg.Client,
  options: {
    chunks: number;
    uploader: { id: string; username: string };
    /** 50 unless given (bench/keeping.ts: 500 files of 200). */
    chunksPerFile?: number;
  },
): Promise<SeededCorpus> {
  const perFile = options.chunksPerFile ?? CHUNKS_PER_FILE;
  const files = Math.ceil(options.chunks / perFile);
  const t0 = performance.now();
  const corpus = makeCorpus({ docs: files, chunksPerDoc: perFile });
  const chunks = corpus.chunks.slice(0, options.chunks);
  const vectors = chunks.map((c) => literal(embedText(c.content, DIMENSIONS)));
  // The keyword side of hybrid search: the terms ingest writes, from the worker's tokenizer.
  const { tsvectorText } = await loadKnowledgeStore();
  const terms = chunks.map((c) => tsvectorText(c.content));
  const embed_s = seconds(t0);

  const { rows } = await db.query<{ indexdef: string }>(
    'select indexdef from pg_indexes where indexname = $1',
    [HNSW_INDEX],
  );
  const indexDefinition = rows[0]?.indexdef;
  if (!indexDefinition) throw new Error(`no index ${HNSW_INDEX}: are the migrations applied?`);

  const t1 = performance.now();
  const fileIds = Array.from({ length: files }, () => crypto.randomUUID());
  await inTransaction(db, async () => {
    await db.query(`drop index ${HNSW_INDEX}`);
    for (let doc = 0; doc < files; doc++) {
      await insertFileRows(db, fileIds[doc]!, doc, chunks, options.uploader);
    }
    for (let start = 0; start < chunks.length; start += ROWS_PER_INSERT) {
      const slice = chunks.slice(start, start + ROWS_PER_INSERT);
      // No ids: the sequence hands them out, as for an upload.
      await db.query(
        `insert into chunks (file_id, page, index, content, embedding, search_terms, embedding_model)
         select file_id, page, index, content, embedding::vector, terms::tsvector, $7
         from unnest($1::uuid[], $2::int[], $3::int[], $4::text[], $5::text[], $6::text[])
           as t(file_id, page, index, content, embedding, terms)`,
        [
          slice.map((c) => fileIds[c.doc]!),
          slice.map((c) => c.page),
          slice.map((c) => c.index),
          slice.map((c) => c.content),
          vectors.slice(start, start + ROWS_PER_INSERT),
          terms.slice(start, start + ROWS_PER_INSERT),
          // The model the workers embed queries with: search compares only its vectors.
          configuredEmbeddingModel(process.env),
        ],
      );
    }
  });
  const insert_s = seconds(t1);

  const t2 = performance.now();
  await inTransaction(db, async () => {
    await db.query(`set local maintenance_work_mem = '512MB'`);
    await db.query(indexDefinition);
  });
  const index_build_s = seconds(t2);

  // Fresh statistics, so that the planner sees the tables as they now are.
  const t3 = performance.now();
  await db.query('analyze files; analyze file_pages; analyze chunks');
  const analyze_s = seconds(t3);
  return {
    files,
    chunks,
    words: corpus.words,
    fileIds,
    embed_s,
    insert_s,
    index_build_s,
    analyze_s,
  };
}

/** One file's row and its pages (the chunks on a page, joined as the page's text). */
async function insertFileRows(
  db: pg.Client,
  id: string,
  doc: number,
  chunks: CorpusChunk[],
  uploader: { id: string; username: string },
): Promise<void> {
  const own = chunks.filter((c) => c.doc === doc);
  const pages = new Map<number, string[]>();
  for (const c of own) pages.set(c.page, [...(pages.get(c.page) ?? []), c.content]);
  await db.query(
    `insert into files (id, name, size, sha256, pages, chunks, uploader_id, uploader_name)
     values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      id,
      `seeded-${doc + 1}.pdf`,
      100_000 + doc,
      randomHex(32),
      pages.size,
      own.length,
      uploader.id,
      uploader.username,
    ],
  );
  await db.query(
    `insert into file_pages (file_id, page, text)
     select $1::uuid, page, text from unnest($2::int[], $3::text[]) as t(page, text)`,
    [id, [...pages.keys()], [...pages.values()].map((texts) => texts.join('\n\n'))],
  );
}

async function inTransaction(db: pg.Client, work: () => Promise<void>): Promise<void> {
  await db.query('begin');
  try {
    await work();
    await db.query('commit');
  } catch (err) {
    await db.query('rollback').catch(() => undefined);
    throw err;
  }
}

// As the vector travels from the model (float32) and the worker writes it (`[a,b,…]`).
const literal = (vector: number[]) => `[${Array.from(Float32Array.from(vector)).join(',')}]`;

const seconds = (since: number) => (performance.now() - since) / 1000;

function randomHex(bytes: number): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('hex');
}
