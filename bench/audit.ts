// npm run bench:audit: the audit chain's verification on 100,000 records (docs/audit.md).
// Starts a database of its own (PGlite + pgvector in memory, migrated; or DATABASE_URL, whose
// audit trail it would add to: use a scratch database), appends the records through
// kbchat_audit as the workers do (a batch of calls per statement), then times, three times
// each, interleaved:
// - the verification (dev/audit/chain.ts: read in id order a page at a time with each
//   record's canonical text, recompute every SHA-256 in Node, follow the chain);
// - the floor: the same reads with no hashing and no chain to follow.
// Prints records/s for both and writes bench-results/audit.json.
//
//   node bench/audit.ts [--records 100000] [--page 5000] [--runs 3]
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { verifyAuditChain } from '../dev/audit/chain.ts';
import { startDatabase } from '../dev/stack/database.ts';
import { applyMigrations, withPool } from '../dev/stack/migrate.ts';
import { table } from './table.ts';

const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: '100000' },
    page: { type: 'string', default: '5000' },
    runs: { type: 'string', default: '3' },
  },
});
const RECORDS = Number(args.records);
const PAGE = Number(args.page);
const RUNS = Number(args.runs);
const APPEND_BATCH = 1000;

const database = await startDatabase({ externalUrl: process.env.DATABASE_URL });
const settings = { url: database.databaseUrl, proxy: database.proxy };
try {
  await applyMigrations(settings);
  const appendStarted = performance.now();
  await withPool(settings, async (db) => {
    for (let done = 0; done < RECORDS; done += APPEND_BATCH) {
      const n = Math.min(APPEND_BATCH, RECORDS - done);
      // Records shaped like real ones: a user, an address, a file with a Chinese name.
      await db.execute(sql`
        select kbchat_audit('knowledge.upload', 'ok', gen_random_uuid(), '张三 ' || i, null,
          '203.0.113.' || (i % 250), 'file', gen_random_uuid()::text, '年度报告 ' || i || '.pdf',
          jsonb_build_object('size', i * 1024, 'collection', 'shared'))
        from generate_series(${done + 1}::int, ${done + n}::int) as i`);
      if ((done + n) % 20000 === 0) console.log(`appended ${done + n}`);
    }
  });
  const appendSeconds = (performance.now() - appendStarted) / 1000;

  const verify: number[] = [];
  const floor: number[] = [];
  let head: string | null = null;
  for (let run = 0; run < RUNS; run++) {
    for (const hash of [true, false]) {
      const started = performance.now();
      const report = await withPool(settings, (db) =>
        verifyAuditChain(db, { pageSize: PAGE, hash }),
      );
      const seconds = (performance.now() - started) / 1000;
      if (report.broken)
        throw new Error(`chain broken at ${report.broken.id}: ${report.broken.why}`);
      if (report.count !== RECORDS) throw new Error(`read ${report.count} of ${RECORDS} records`);
      (hash ? verify : floor).push(seconds);
      head = report.head;
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const perSecond = (s: number) => Math.round(RECORDS / s);
  const result = {
    records: RECORDS,
    page: PAGE,
    runs: RUNS,
    database: database.description,
    append_seconds: Number(appendSeconds.toFixed(1)),
    append_per_second: perSecond(appendSeconds),
    verify_seconds: verify.map((s) => Number(s.toFixed(2))),
    floor_seconds: floor.map((s) => Number(s.toFixed(2))),
    verify_per_second: perSecond(median(verify)),
    floor_per_second: perSecond(median(floor)),
    head,
  };
  console.log(
    table(
      ['step (median of runs)', 'seconds', 'records/s'],
      [
        ['append through kbchat_audit', appendSeconds.toFixed(1), String(result.append_per_second)],
        [
          'verify (read + SHA-256 + chain)',
          median(verify).toFixed(2),
          String(result.verify_per_second),
        ],
        ['floor (the same reads only)', median(floor).toFixed(2), String(result.floor_per_second)],
      ],
    ),
  );
  const out = path.resolve(import.meta.dirname, '../bench-results');
  await mkdir(out, { recursive: true });
  await writeFile(path.join(out, 'audit.json'), `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await database.close();
}
