import net from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { neon, neonConfig, type NeonQueryFunction } from '@neondatabase/serverless';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawPgClient } from '../test/raw-pg-client.ts';
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

describe('statements that queue for the one local session', () => {
  // More statements at once than the proxy's connections to the front, while a transaction
  // holds the session: some wait for a pooled connection, the others for their turn.
  const MORE_THAN_THE_POOL = 8;

  async function holdSession(): Promise<RawPgClient> {
    const holder = await RawPgClient.connect(front.port);
    await holder.query('begin');
    await holder.query('select 1');
    return holder;
  }

  it('a statement that waits longer than the 5 s connect bound for its turn still runs', async () => {
    const holder = await holdSession();
    try {
      const answers = Promise.allSettled(
        Array.from({ length: MORE_THAN_THE_POOL }, (_, i) => sql`select ${i}::int as i`),
      );
      await sleep(6_000);
      await holder.query('commit');
      const settled = await answers;
      const outcomes = settled.map((answer) =>
        answer.status === 'fulfilled' ? answer.value : String(answer.reason),
      );
      expect(outcomes).toEqual(Array.from({ length: MORE_THAN_THE_POOL }, (_, i) => [{ i }]));
    } finally {
      holder.end();
    }
  }, 20_000);

  it('past the queue bound a statement is refused as by a busy server (53300), never a 500', async () => {
    const impatient = await startNeonProxy({
      allowed: [`${front.host}:${front.port}`],
      queueTimeoutMs: 300,
    });
    const endpoint = neonConfig.fetchEndpoint;
    neonConfig.fetchEndpoint = () => `http://${impatient.address}/sql`;
    const holder = await holdSession();
    try {
      const answers = Promise.allSettled(
        Array.from({ length: MORE_THAN_THE_POOL }, (_, i) => sql`select ${i}::int as i`),
      );
      await sleep(1_000);
      await holder.query('commit');
      const settled = await answers;
      const refused = settled.filter((answer) => answer.status === 'rejected');
      expect(refused.length).toBeGreaterThan(0);
      for (const answer of refused) {
        expect(answer.reason).toMatchObject({
          code: '53300',
          message: expect.stringMatching(/busy/),
        });
      }
      // The statements that got a connection waited for their turn and ran.
      expect(settled.length - refused.length).toBeGreaterThan(0);
      expect(await sql`select 1 as one`).toEqual([{ one: 1 }]);
    } finally {
      holder.end();
      neonConfig.fetchEndpoint = endpoint;
      await impatient.close();
    }
  });
});

describe('a database that does not answer', () => {
  it('a statement fails within the 5 s connect bound, as unreachable (HTTP 500)', async () => {
    // Accepts connections and never says a word, as a hung server would.
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    const unanswered = await startNeonProxy({ allowed: [`127.0.0.1:${port}`] });
    const endpoint = neonConfig.fetchEndpoint;
    neonConfig.fetchEndpoint = () => `http://${unanswered.address}/sql`;
    try {
      const started = performance.now();
      await expect(
        neon(`postgres://postgres@127.0.0.1:${port}/postgres`)`select 1`,
      ).rejects.toThrow(/HTTP status 500/);
      expect(performance.now() - started).toBeLessThan(8_000);
    } finally {
      neonConfig.fetchEndpoint = endpoint;
      await unanswered.close();
      silent.close();
    }
  }, 15_000);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
