// PGlite + pgvector in this process, with the repo's migrations: the chunks table as the
// service has it, its column type changed where a variant stores fewer dimensions.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ChunkRow {
  id: number;
  fileId: string;
  page: number;
  index: number;
  content: string;
  /** The pgvector literal of the embedding. */
  embedding: string;
}

/** A new database, or a copy of a snapshot (PGlite's data directory as a tar). */
export function openDatabase(snapshot?: Blob): Promise<PGlite> {
  return PGlite.create({ extensions: { vector }, ...(snapshot ? { loadDataDir: snapshot } : {}) });
}

/**
 * The migrations, without the migration's own HNSW index (each variant builds its index after
 * the bulk load), with the embedding column of the variant's type.
 */
export async function prepareSchema(pg: PGlite, column: string): Promise<void> {
  await migrate(drizzle({ client: pg }), { migrationsFolder: path.join(root, 'migrations') });
  await pg.exec('DROP INDEX "chunks_embedding_hnsw_idx"');
  if (column !== 'vector(1536)') {
    await pg.exec(`ALTER TABLE chunks ALTER COLUMN embedding TYPE ${column}`);
  }
}

export async function insertFiles(pg: PGlite, fileIds: string[]): Promise<void> {
  await pg.query(
    `insert into files (id, name, size, sha256, pages, chunks, uploader_id, uploader_name)
     select id, 'bench-' || n || '.pdf', 100000, md5(id::text), 8, 50, $2::uuid, 'bench'
     from unnest($1::uuid[]) with ordinality as t(id, n)`,
    [fileIds, crypto.randomUUID()],
  );
}

/** One statement for the rows (what one `insert … values` of a batch does). */
export async function insertChunks(pg: PGlite, rows: readonly ChunkRow[]): Promise<void> {
  await pg.query(
    `insert into chunks (id, file_id, page, index, content, embedding)
     select id, file_id, page, index, content, embedding::vector
     from unnest($1::bigint[], $2::uuid[], $3::int[], $4::int[], $5::text[], $6::text[])
       as t(id, file_id, page, index, content, embedding)`,
    [
      rows.map((r) => r.id),
      rows.map((r) => r.fileId),
      rows.map((r) => r.page),
      rows.map((r) => r.index),
      rows.map((r) => r.content),
      rows.map((r) => r.embedding),
    ],
  );
}

/**
 * The search settings the service runs with (migration 0004 sets them for the database; a
 * session opened before the migration ran does not have them): hnsw.ef_search, relaxed
 * iterative scans, SSD page costs.
 */
export async function servedSettings(pg: PGlite, efSearch: number, probes = 1): Promise<void> {
  await pg.exec(
    `SET hnsw.ef_search = ${efSearch}; SET hnsw.iterative_scan = relaxed_order; ` +
      `SET ivfflat.probes = ${probes}; SET ivfflat.iterative_scan = relaxed_order; ` +
      'SET random_page_cost = 1.1',
  );
}

export async function relationBytes(pg: PGlite, relation: string): Promise<number> {
  const { rows } = await pg.query<{ bytes: string }>(
    'select pg_relation_size($1::regclass)::text as bytes',
    [relation],
  );
  return Number(rows[0]!.bytes);
}

export async function tableBytes(pg: PGlite): Promise<{ heap: number; toast: number }> {
  const { rows } = await pg.query<{ heap: string; toast: string }>(
    `select pg_relation_size('chunks')::text as heap,
            coalesce(pg_total_relation_size(reltoastrelid), 0)::text as toast
     from pg_class where oid = 'chunks'::regclass`,
  );
  return { heap: Number(rows[0]!.heap), toast: Number(rows[0]!.toast) };
}
