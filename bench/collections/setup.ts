// One PGlite database per layout for bench/collections.ts: the repo's migrations, the same
// chunks (offline-model vectors, the worker's search terms), files spread over collections as
// the layout says, users who are members of some of them, and the workers' login
// (dev/stack/app-role.ts) so that statements can run under row-level security.
import { performance } from 'node:perf_hooks';
import type { PGlite } from '@electric-sql/pglite';
import { LOCAL_APP_LOGIN } from '../../dev/stack/app-role.ts';
import { binaryCopyData, type BinaryChunkRow } from '../index-design/binary-copy.ts';
import { openDatabase, prepareSchema, servedSettings } from '../index-design/database.ts';

export const HNSW_INDEX = 'chunks_embedding_hnsw_idx';
export const GIN_INDEX = 'chunks_search_terms_idx';
/** As served: migration 0016 sets it on the database. */
export const EF_SEARCH = 600;

export interface LayoutCollection {
  id: string;
  name: string;
  /** 0-based documents (files) in it. */
  docs: number[];
}

export interface BenchUser {
  key: string;
  id: string;
  epoch: number;
  /** The collections the user is a member (viewer) of. */
  collections: string[];
}

export interface LoadedLayout {
  pg: PGlite;
  load_s: number;
  hnsw_build_s: number;
  gin_build_s: number;
}

export interface LayoutData {
  collections: LayoutCollection[];
  users: { key: string; collections: string[] }[];
  fileIds: string[];
  /** Chunk row i has id i + 1. */
  chunks: { doc: number; page: number; index: number; content: string }[];
  values(i: number): Float32Array;
  /** The tsvector text the ingest writes (ingest/search-terms.ts tsvectorText). */
  terms: string[];
}

const seconds = (since: number) => Math.round((performance.now() - since) / 10) / 100;

export async function loadLayout(data: LayoutData): Promise<LoadedLayout & { users: BenchUser[] }> {
  const t0 = performance.now();
  const pg = await openDatabase();
  await prepareSchema(pg, 'vector(1536)'); // drops the HNSW index: built after the load
  const gin = await pg.query<{ indexdef: string }>(
    'select indexdef from pg_indexes where indexname = $1',
    [GIN_INDEX],
  );
  const ginDefinition = gin.rows[0]!.indexdef;
  await pg.exec(`DROP INDEX ${GIN_INDEX}`);
  await createAppLogin(pg);

  // Collections made by the owner role (no creator, so no member row from the trigger).
  await pg.query(
    `insert into collections (id, name) select * from unnest($1::uuid[], $2::text[])`,
    [data.collections.map((c) => c.id), data.collections.map((c) => c.name)],
  );
  const users: BenchUser[] = [];
  for (const u of data.users) {
    const id = crypto.randomUUID();
    await pg.query(`insert into users (id, username, password_hash) values ($1, $2, 'x')`, [
      id,
      `bench-${u.key}`,
    ]);
    await pg.query(
      `insert into collection_members (collection_id, user_id, username, role)
       select c, $2::uuid, $3, 'viewer' from unnest($1::uuid[]) as c`,
      [u.collections, id, `bench-${u.key}`],
    );
    users.push({ key: u.key, id, epoch: 0, collections: u.collections });
  }
  const uploader = users[0]!;
  const collectionOfDoc = new Map<number, string>();
  for (const c of data.collections) for (const d of c.docs) collectionOfDoc.set(d, c.id);
  await pg.query(
    `insert into files (id, collection_id, name, size, sha256, pages, chunks, uploader_id, uploader_name)
     select id, collection_id, 'bench-' || n || '.pdf', 100000, md5(id::text), 8, 50, $3::uuid, 'bench'
     from unnest($1::uuid[], $2::uuid[]) with ordinality as t(id, collection_id, n)`,
    [data.fileIds, data.fileIds.map((_, doc) => collectionOfDoc.get(doc)!), uploader.id],
  );

  // Binary COPY into a staging table (the vectors as float32, no text literals to parse), then
  // one insert that adds each chunk's collection (its file's) and search terms.
  await pg.exec(
    'create temp table stage (id bigint, file_id uuid, page int, index int, content text, embedding vector(1536))',
  );
  const BATCH = 1000;
  for (let start = 0; start < data.chunks.length; start += BATCH) {
    const rows: BinaryChunkRow[] = [];
    for (let i = start; i < Math.min(data.chunks.length, start + BATCH); i++) {
      const c = data.chunks[i]!;
      rows.push({
        id: i + 1,
        fileId: data.fileIds[c.doc]!,
        page: c.page,
        index: c.index,
        content: c.content,
        embedding: data.values(i),
      });
    }
    await pg.query(
      `COPY stage (id, file_id, page, index, content, embedding) FROM '/dev/blob' WITH (FORMAT binary)`,
      [],
      { blob: new Blob([binaryCopyData(rows)]) },
    );
  }
  await pg.query(
    `insert into chunks (id, file_id, collection_id, page, index, content, embedding, search_terms)
     select s.id, s.file_id, f.collection_id, s.page, s.index, s.content, s.embedding, t.terms::tsvector
     from stage s
     join files f on f.id = s.file_id
     join unnest($1::bigint[], $2::text[]) as t(id, terms) on t.id = s.id`,
    [data.chunks.map((_, i) => i + 1), data.terms],
  );
  await pg.exec(`drop table stage; select setval('chunks_id_seq', (select max(id) from chunks));`);
  const load_s = seconds(t0);

  await pg.exec(`SET maintenance_work_mem = '512MB'`);
  const t1 = performance.now();
  await pg.exec(`CREATE INDEX ${HNSW_INDEX} ON chunks USING hnsw (embedding vector_cosine_ops)`);
  const hnsw_build_s = seconds(t1);
  const t2 = performance.now();
  await pg.exec(ginDefinition);
  const gin_build_s = seconds(t2);
  await pg.exec('ANALYZE');
  await servedSettings(pg, EF_SEARCH);
  return { pg, users, load_s, hnsw_build_s, gin_build_s };
}

/** The workers' login (dev/stack/app-role.ts): a member of kbchat_app, under its policies. */
export async function createAppLogin(pg: PGlite): Promise<void> {
  await pg.exec(`CREATE ROLE ${LOCAL_APP_LOGIN} LOGIN NOSUPERUSER NOBYPASSRLS`);
  await pg.exec(`GRANT kbchat_app TO ${LOCAL_APP_LOGIN}`);
}

/** As the workers run a request for `user`: their login, the session check first. */
export async function asApp<T>(
  pg: PGlite,
  user: BenchUser,
  work: (tx: Pick<PGlite, 'query' | 'exec'>) => Promise<T>,
  settings: string[] = [],
): Promise<T> {
  return pg.transaction(async (tx) => {
    await tx.exec(`SET LOCAL ROLE ${LOCAL_APP_LOGIN}`);
    for (const s of settings) await tx.exec(`SET LOCAL ${s}`);
    await tx.query('select * from kbchat_session($1::uuid, $2::int, false)', [user.id, user.epoch]);
    return work(tx);
  });
}

/**
 * As the tables' owner (no row-level security): the floor. The session check still runs: the
 * keyword list's function (migration 0012) applies the read rule itself and, with no user,
 * finds nothing; with the user it reads as the owner either way (SECURITY DEFINER).
 */
export async function asOwner<T>(
  pg: PGlite,
  user: BenchUser,
  work: (tx: Pick<PGlite, 'query' | 'exec'>) => Promise<T>,
  settings: string[] = [],
): Promise<T> {
  return pg.transaction(async (tx) => {
    for (const s of settings) await tx.exec(`SET LOCAL ${s}`);
    await tx.query('select * from kbchat_session($1::uuid, $2::int, false)', [user.id, user.epoch]);
    return work(tx);
  });
}
