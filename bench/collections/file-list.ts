// Does listing files cost more when other collections hold many files the user cannot see?
// The list route (handlers/files.ts list) runs store/files.ts listFiles with no collection
// filter: row-level security decides which files come back, so Postgres may still read the
// invisible ones. A database of files only (no chunks): a user who reads one collection of
// VISIBLE files, the other collections holding few files, then many; the list timed as the
// app role (with and without the route's collection_id filter) and as the owner with the
// filter (the floor).
import { performance } from 'node:perf_hooks';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import type { ListFiles } from '../nearest-chunks-query.ts';
import { openDatabase, prepareSchema } from '../index-design/database.ts';
import { stats } from '../stats.ts';
import type { Role } from './measure.ts';
import type { FileListResult } from './results.ts';
import { asApp, asOwner, createAppLogin, type BenchUser } from './setup.ts';

const VISIBLE = 20;
const OTHER_COLLECTIONS = 49;
/** Files in the collections the user cannot read: few, then many. */
export const OTHER_FILES = [100, 20_000] as const;
const WARMUP = 5;
const RUNS = 40;

type Tx = Pick<PGlite, 'query' | 'exec'>;

async function insertFiles(pg: PGlite, collections: string[], count: number, uploader: string) {
  // Spread over a year of upload times, so that the list's order by created_at sorts something.
  await pg.query(
    `insert into files (collection_id, name, size, sha256, pages, chunks, uploader_id, uploader_name, created_at)
     select ($1::uuid[])[1 + n % cardinality($1::uuid[])], 'bench-' || n || '.pdf', 100000,
            md5(random()::text || n), 8, 50, $3::uuid, 'bench', now() - random() * interval '365 days'
     from generate_series(1, $2::int) as n`,
    [collections, count, uploader],
  );
  await pg.exec('ANALYZE files');
}

/** The first plan node that reads files, and the rows its filter removed. */
function filesAccess(plan: string): string {
  const lines = plan.split('\n');
  const at = lines.findIndex((l) => / on files\b/.test(l));
  if (at < 0) return 'other';
  const node = /(Seq Scan|Index Only Scan|Index Scan|Bitmap Heap Scan)( using \S+)? on files/.exec(
    lines[at]!,
  );
  let removed = 0;
  for (const line of lines.slice(at + 1)) {
    if (line.trimStart().startsWith('->')) break;
    removed += Number(/Rows Removed by Filter: (\d+)/.exec(line)?.[1] ?? 0);
  }
  return `${node ? node[1]! + (node[2] ?? '') : 'other'} (${removed} removed by filter)`;
}

export async function measureFileList(
  listFiles: ListFiles,
  log: (message: string) => void,
): Promise<FileListResult[]> {
  const pg = await openDatabase();
  const out: FileListResult[] = [];
  try {
    await prepareSchema(pg, 'vector(1536)');
    await createAppLogin(pg);
    const mine = crypto.randomUUID();
    const others = Array.from({ length: OTHER_COLLECTIONS }, () => crypto.randomUUID());
    await pg.query(
      `insert into collections (id, name) select id, 'files-' || n from unnest($1::uuid[]) with ordinality as t(id, n)`,
      [[mine, ...others]],
    );
    const user: BenchUser = {
      key: 'reader',
      id: crypto.randomUUID(),
      epoch: 0,
      collections: [mine],
    };
    await pg.query(
      `insert into users (id, username, password_hash) values ($1, 'bench-reader', 'x')`,
      [user.id],
    );
    await pg.query(
      `insert into collection_members (collection_id, user_id, username, role) values ($1, $2, 'bench-reader', 'viewer')`,
      [mine, user.id],
    );
    await insertFiles(pg, [mine], VISIBLE, user.id);
    const mock = drizzle.mock();
    const runs: { role: Role; filter: boolean }[] = [
      { role: 'app', filter: false },
      { role: 'app', filter: true },
      { role: 'owner', filter: true },
    ];
    let present = 0;
    for (const target of OTHER_FILES) {
      await insertFiles(pg, others, target - present, user.id);
      present = target;
      for (const run of runs) {
        const { sql: text, params } = listFiles(
          mock,
          run.filter ? { collectionIds: [mine] } : {},
        ).toSQL();
        const inRole = <T>(work: (tx: Tx) => Promise<T>) =>
          run.role === 'app' ? asApp(pg, user, work) : asOwner(pg, user, work);
        const samples: number[] = [];
        let rows = 0;
        for (let i = 0; i < WARMUP + RUNS; i++) {
          const r = await inRole(async (tx) => {
            const t0 = performance.now();
            const { rows } = await tx.query(text, params);
            return { ms: performance.now() - t0, rows: rows.length };
          });
          if (i >= WARMUP) samples.push(r.ms);
          rows = r.rows;
        }
        const plan = await inRole(async (tx) => {
          const r = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ANALYZE ${text}`, params);
          return r.rows.map((x) => x['QUERY PLAN']).join('\n');
        });
        const result: FileListResult = {
          other_files: target,
          visible_files: VISIBLE,
          role: run.role,
          collection_filter: run.filter,
          rows,
          latency: stats(samples),
          files_access: filesAccess(plan),
          execution_ms: Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? NaN),
        };
        out.push(result);
        log(
          `file list, ${target} other files, ${run.role}${run.filter ? ' + filter' : ''}: ` +
            `${rows} rows, p50 ${result.latency.median_ms.toFixed(2)} ms, ${result.files_access}`,
        );
      }
    }
  } finally {
    await pg.close();
  }
  return out;
}
