import { PGlite } from '@electric-sql/pglite';
import { neon, neonConfig, type NeonQueryFunction } from '@neondatabase/serverless';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNeonProxy, type NeonProxy } from './neon-proxy.ts';
import { startSessionFront, type SessionFront } from './session-front.ts';

// The local stand-in for Neon's SQL-over-HTTP endpoint, driven by the real Neon driver the way
// a worker drives it: one statement, a non-interactive transaction, errors with their fields.
let db: PGlite;
let front: SessionFront;
let proxy: NeonProxy;
let sql: NeonQueryFunction<false, false>;

beforeAll(async () => {
  db = await PGlite.create();
  front = await startSessionFront(db);
  proxy = await startNeonProxy({ allowed: [`${front.host}:${front.port}`] });
  neonConfig.fetchEndpoint = () => `http://${proxy.address}/sql`;
  sql = neon(`postgres://postgres@${front.host}:${front.port}/postgres`);
  await sql`create table http_probe (id int primary key, note text, at timestamptz default now())`;
});

afterAll(async () => {
  await proxy.close();
  await front.close();
  await db.close();
});

describe('SQL over HTTP, as Neon serves it', () => {
  it('one statement with parameters: rows typed by the driver', async () => {
    const rows =
      await sql`select ${41}::int + 1 as n, ${'text'} as t, now() as at, ${null}::int as nothing`;
    expect(rows).toEqual([{ n: 42, t: 'text', at: expect.any(Date), nothing: null }]);
  });

  it('a transaction is all or nothing', async () => {
    await sql.transaction([
      sql`insert into http_probe (id, note) values (1, 'one')`,
      sql`insert into http_probe (id, note) values (2, 'two')`,
    ]);
    await expect(
      sql.transaction([
        sql`insert into http_probe (id, note) values (3, 'three')`,
        sql`insert into http_probe (id, note) values (1, 'duplicate')`,
      ]),
    ).rejects.toMatchObject({ code: '23505', constraint: 'http_probe_pkey' });
    const rows = await sql`select id from http_probe order by id`;
    expect(rows.map((row) => row.id)).toEqual([1, 2]);
  });

  it('transaction-local settings hold for the statements after them, and no further', async () => {
    const [, inside] = await sql.transaction([
      sql`select set_config('kbchat.user_id', 'alice', true)`,
      sql`select current_setting('kbchat.user_id', true) as user_id`,
    ]);
    expect(inside).toEqual([{ user_id: 'alice' }]);
    const [after] = await sql`select current_setting('kbchat.user_id', true) as user_id`;
    expect(after!.user_id ?? '').toBe('');
  });

  it('a Postgres error arrives with its SQLSTATE and message', async () => {
    await expect(sql`select 1 / 0`).rejects.toMatchObject({
      code: '22012',
      message: 'division by zero',
    });
  });

  it('an answer larger than Neon’s 10 MB is refused, as on Neon', async () => {
    await expect(sql`select repeat('x', 11 * 1024 * 1024) as big`).rejects.toThrow(/too large/);
  });

  it('only the database it was started for is reachable', async () => {
    const elsewhere = neon('postgres://postgres@127.0.0.1:1/postgres');
    await expect(elsewhere`select 1`).rejects.toThrow(/403|not allowed/);
  });
});
