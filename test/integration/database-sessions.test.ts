import { exports } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openPool } from '#shared/db/database';

// Through the real path a worker uses: Neon driver in workerd -> WebSocket relay -> the
// per-session front -> PGlite (or DATABASE_URL's Postgres). Each `openPool` is what one
// request gets.
const stack = inject('stack');
const settings = { url: stack.databaseUrl, proxy: stack.databaseProxy };
const table = sql.identifier(`session_probe_${crypto.randomUUID().replaceAll('-', '')}`);

class Rollback extends Error {}

async function withDb<T>(fn: (db: ReturnType<typeof openPool>['db']) => Promise<T>) {
  const { db, close } = openPool(settings, {});
  try {
    return await fn(db);
  } finally {
    await close();
  }
}

const count = (db: ReturnType<typeof openPool>['db']) =>
  db.execute<{ n: number }>(sql`select count(*)::int as n from ${table}`).then((r) => r.rows[0]!.n);

describe('database sessions through the local front, as through a pooler', () => {
  beforeAll(() => withDb((db) => db.execute(sql`create table ${table} (id int)`)));
  afterAll(() => withDb((db) => db.execute(sql`drop table if exists ${table}`)));

  it('a concurrent request never runs inside another request’s transaction', async () => {
    let inserted!: () => void;
    const insertedSignal = new Promise<void>((resolve) => (inserted = resolve));
    let seenInside = -1;

    const writer = withDb((db) =>
      db
        .transaction(async (tx) => {
          await tx.execute(sql`insert into ${table} values (1), (2), (3)`);
          inserted();
          // Hold the transaction open while the reader is already waiting.
          await new Promise((resolve) => setTimeout(resolve, 300));
          seenInside = await count(tx);
          throw new Rollback();
        })
        .catch((err) => {
          if (!(err instanceof Rollback)) throw err;
          return 'rolled back';
        }),
    );
    await insertedSignal;
    const reader = withDb(count);

    expect(await writer).toBe('rolled back');
    expect(seenInside).toBe(3);
    // With a shared session the reader's query would have joined the writer's transaction
    // and seen its three uncommitted rows.
    expect(await reader).toBe(0);
    expect(await withDb(count)).toBe(0);
  });

  it('session settings do not leak into the next client', async () => {
    await withDb(async (db) => {
      await db.execute(sql`set application_name = 'leaky'`);
      const { rows } = await db.execute<{ app: string }>(
        sql`select current_setting('application_name') as app`,
      );
      expect(rows[0]!.app).toBe('leaky');
      // Session-level set_config cannot be followed by the front: refused, not silently lost.
      await expect(
        db.execute(sql`select set_config('kbchat.marker', 'from-a', false)`),
      ).rejects.toMatchObject({ cause: { code: '0A000' } });
    });
    const { rows } = await withDb((db) =>
      db.execute<{ marker: string | null; app: string }>(
        sql`select current_setting('kbchat.marker', true) as marker,
                   current_setting('application_name') as app`,
      ),
    );
    expect(rows[0]!.marker ?? '').toBe('');
    expect(rows[0]!.app).not.toBe('leaky');
  });

  it('serves many concurrent requests, queued, without errors', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        exports.default.fetch(new Request('http://kb.test/moduleknowledge/health')),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
  });
});
