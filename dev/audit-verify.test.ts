// npm run audit:verify against a real database (PGlite, migrated): an untouched chain passes,
// a record changed, removed or cut off by its owner is named, a recorded prune is not a break
// (nor one that removed every record).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENESIS, verifyAuditChain } from './audit/chain.ts';
import { startDatabase, type RunningDatabase } from './stack/database.ts';
import { applyMigrations, withPool } from './stack/migrate.ts';

const root = path.resolve(import.meta.dirname, '..');
let database: RunningDatabase;
let settings: { url: string; proxy: string };

const onDb = <T>(work: Parameters<typeof withPool<T>>[1]) => withPool(settings, work);
const verify = () => onDb((db) => verifyAuditChain(db, { pageSize: 7 }));

async function append(n: number) {
  await onDb(async (db) => {
    for (let i = 0; i < n; i++) {
      await db.execute(sql`select kbchat_audit('knowledge.upload', 'ok', ${crypto.randomUUID()}::uuid,
        ${`用户 ${i}`}, null, '203.0.113.9', 'file', ${String(i)}, ${`报告 ${i}.pdf`},
        ${JSON.stringify({ size: i, note: 'a "quoted" word' })}::jsonb)`);
    }
  });
}

/** Runs `work` as the owner, then puts the table back as it was. */
async function tampered<T>(
  change: ReturnType<typeof sql> | ReturnType<typeof sql>[],
  work: () => Promise<T>,
): Promise<T> {
  await onDb((db) => db.execute(sql`create table audit_backup as select * from audit_events`));
  try {
    await onDb(async (db) => {
      for (const statement of [change].flat()) await db.execute(statement);
    });
    return await work();
  } finally {
    await onDb(async (db) => {
      await db.execute(sql`delete from audit_events`);
      await db.execute(
        sql`insert into audit_events overriding system value select * from audit_backup`,
      );
      await db.execute(sql`drop table audit_backup`);
    });
  }
}

beforeAll(async () => {
  database = await startDatabase({});
  settings = { url: database.databaseUrl, proxy: database.proxy };
  await applyMigrations(settings);
  await append(30);
}, 120_000);

afterAll(async () => {
  await database?.close();
});

describe('the audit chain', () => {
  it('passes untouched, across pages, and names its head', async () => {
    const report = await verify();
    const [newest] = await onDb(
      async (db) =>
        (
          await db.execute<{ hash: string }>(
            sql`select hash from audit_events order by id desc limit 1`,
          )
        ).rows,
    );
    expect(report).toEqual({ count: 30, firstId: 1, head: newest!.hash, start: 'genesis' });
  });

  it('names a record whose content was changed', async () => {
    const report = await tampered(
      sql`update audit_events set object_label = 'nothing to see' where id = 12`,
      verify,
    );
    expect(report.broken).toEqual({ id: 12, why: expect.stringContaining('was changed') });
    expect(report.count).toBe(11);
  });

  it('names a record whose hash was rewritten to match its changed content', async () => {
    // The hash is recomputed but the next record still points at the old one.
    const report = await tampered(
      [
        sql`update audit_events set outcome = 'denied' where id = 20`,
        sql`update audit_events a
            set hash = encode(sha256(convert_to(a.prev_hash || kbchat_audit_text(a), 'UTF8')), 'hex')
            where id = 20`,
      ],
      verify,
    );
    expect(report.broken?.id).toBe(21);
    expect(report.broken?.why).toContain('not the hash of the record before it (20)');
  });

  it('names the record after one that was deleted', async () => {
    const report = await tampered(sql`delete from audit_events where id = 5`, verify);
    expect(report.broken).toEqual({ id: 6, why: expect.stringContaining('removed') });
  });

  it('refuses a chain whose first records were deleted without a prune', async () => {
    const report = await tampered(sql`delete from audit_events where id <= 3`, verify);
    expect(report.broken).toEqual({ id: 4, why: expect.stringContaining('auth.audit_prune') });
  });

  it('starts after a recorded prune', async () => {
    const report = await tampered(
      sql`update audit_events set at = now() - interval '5000 days' where id <= 3`,
      async () => {
        // The old records' hashes no longer match their changed times: the prune removes them.
        await onDb((db) => db.execute(sql`select kbchat_audit_prune()`));
        return verify();
      },
    );
    expect(report).toMatchObject({ count: 28, firstId: 4, start: 'after prune' });
    expect(report.broken).toBeUndefined();
  });

  it('a prune that removed every record chains its own record to the last one removed', async () => {
    const outcome = await tampered(
      sql`update audit_events set at = now() - interval '5000 days'`,
      async () => {
        const [last] = await onDb(
          async (db) =>
            (
              await db.execute<{ id: string; hash: string }>(
                sql`select a.id::text as id, a.hash from audit_events a order by a.id desc limit 1`,
              )
            ).rows,
        );
        await onDb((db) => db.execute(sql`select kbchat_audit_prune()`));
        const [prune] = await onDb(
          async (db) =>
            (
              await db.execute<{ prev_hash: string; detail: Record<string, unknown> }>(
                sql`select prev_hash, detail from audit_events`,
              )
            ).rows,
        );
        return { last: last!, prune: prune!, report: await verify() };
      },
    );
    // Not 64 zeros: the chain goes on from the record it removed last, in the hash itself.
    expect(outcome.prune.prev_hash).toBe(outcome.last.hash);
    expect(outcome.prune.detail).toMatchObject({
      removed: 30,
      last_removed_id: Number(outcome.last.id),
      last_removed_hash: outcome.last.hash,
    });
    expect(outcome.report).toMatchObject({ count: 1, start: 'after prune' });
    expect(outcome.report.broken).toBeUndefined();
  });

  it('a trail that an earlier prune (migration 0028) emptied starts after that prune', async () => {
    // 0028's prune appended its record to the emptied table: 64 zeros before it, the removed
    // records named only in its detail.
    const report = await tampered(
      [
        sql`delete from audit_events`,
        sql`select kbchat_audit('auth.audit_prune', 'ok', null, null, null, null, 'audit_events',
          null, null, ${JSON.stringify({ removed: 30, last_removed_id: 30, last_removed_hash: 'f'.repeat(64) })}::jsonb)`,
      ],
      verify,
    );
    expect(report).toMatchObject({ count: 1, start: 'after prune' });
    expect(report.broken).toBeUndefined();
  });

  it('npm run audit:verify prints count and head, and exits 1 naming the break', async () => {
    const run = (env: NodeJS.ProcessEnv) =>
      promisify(execFile)(path.join(root, 'node_modules/.bin/node'), ['dev/audit-verify.ts'], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: settings.url, AUTH_DATABASE_URL: '', ...env },
      }).then(
        (out) => ({ code: 0, ...out }),
        (err: { code: number; stdout: string; stderr: string }) => err,
      );
    const whole = await run({});
    expect(whole.code).toBe(0);
    expect(whole.stdout).toMatch(/30 records checked/);
    expect(whole.stdout).toMatch(/head hash [0-9a-f]{64}/);
    const broken = await tampered(sql`update audit_events set detail = '{}' where id = 17`, () =>
      run({}),
    );
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/BROKEN at record 17: its hash does not match/);
  }, 60_000);

  it('the genesis is 64 zeros', () => {
    expect(GENESIS).toMatch(/^0{64}$/);
  });
});
