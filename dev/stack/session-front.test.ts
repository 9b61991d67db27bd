import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { RawPgClient } from '../test/raw-pg-client.ts';
import { startSessionFront, type SessionFront } from './session-front.ts';

let db: PGlite;
let front: SessionFront;

beforeAll(async () => {
  db = await PGlite.create();
  front = await startSessionFront(db);
});

afterAll(async () => {
  await front.close();
  await db.close();
});

// Eight rows of ~1.25 MB, each made of one letter: any byte of one row showing up in another,
// a row cut short or a row missing is visible.
const BIG_ROWS = `select i, repeat(chr(65 + i), 1250000) as text from generate_series(0, 7) as i`;

function expectIntactRows(rows: (string | null)[][]): void {
  expect(rows.map((row) => row[0])).toEqual(['0', '1', '2', '3', '4', '5', '6', '7']);
  rows.forEach((row, i) => {
    const text = row[1]!;
    expect(text.length, `row ${i} length`).toBe(1_250_000);
    const letter = String.fromCharCode(65 + i);
    expect(text.replaceAll(letter, ''), `row ${i} holds only ${letter}`).toBe('');
  });
}

describe('results reach the client intact', () => {
  it('a ~10 MB result read at full speed', async () => {
    const client = await RawPgClient.connect(front.port);
    try {
      const result = await client.query(BIG_ROWS);
      expect(result.error).toBeUndefined();
      expectIntactRows(result.rows);
    } finally {
      client.end();
    }
  });

  it('a ~10 MB result read by a slow client', async () => {
    const client = await RawPgClient.connect(front.port);
    try {
      // The client stops reading: the front's socket buffers fill and writes cannot complete
      // at once, while PGlite goes on producing output into the same WebAssembly memory.
      client.socket.pause();
      client.sendQuery(BIG_ROWS);
      await new Promise((resolve) => setTimeout(resolve, 500));
      client.socket.resume();
      const result = await client.readUntilReady();
      expect(result.error).toBeUndefined();
      expectIntactRows(result.rows);
    } finally {
      client.end();
    }
  });
  it('a slow reader and a fast client at once each get their own rows', async () => {
    const slow = await RawPgClient.connect(front.port);
    const fast = await RawPgClient.connect(front.port);
    try {
      slow.socket.pause();
      slow.sendQuery(BIG_ROWS);
      const fastResult = fast.query(
        `select string_agg(chr(97 + i % 26), '') from generate_series(0, 99999) as i`,
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      slow.socket.resume();
      const slowResult = await slow.readUntilReady();
      expect(slowResult.error).toBeUndefined();
      expectIntactRows(slowResult.rows);
      const text = (await fastResult).rows[0]![0]!;
      expect(text.length).toBe(100_000);
      expect(text.slice(0, 26)).toBe('abcdefghijklmnopqrstuvwxyz');
    } finally {
      slow.end();
      fast.end();
    }
  });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function pgClient(options: { user?: string } = {}) {
  return new pg.Client({
    host: front.host,
    port: front.port,
    user: options.user ?? 'postgres',
    database: 'postgres',
  });
}

describe('one session shared per transaction, as a pooler in transaction mode shares it', () => {
  beforeAll(async () => {
    const admin = await RawPgClient.connect(front.port);
    await admin.query(`create table shared_probe (id int)`);
    admin.end();
  });

  it('a statement of another client waits for an open transaction, then sees only what was committed', async () => {
    const a = await RawPgClient.connect(front.port);
    const b = await RawPgClient.connect(front.port);
    try {
      await a.query('begin');
      await a.query('insert into shared_probe values (1), (2)');
      const seenByB = b.query('select count(*) from shared_probe');
      await sleep(200);
      await a.query('rollback');
      // B ran after A's transaction ended, outside it: it never saw the uncommitted rows.
      expect((await seenByB).rows).toEqual([['0']]);
    } finally {
      a.end();
      b.end();
    }
  });

  it('an idle client is never disconnected while others work', async () => {
    const idle = await RawPgClient.connect(front.port);
    const busy = await RawPgClient.connect(front.port);
    try {
      await idle.query('select 1');
      for (let i = 0; i < 20; i++) await busy.query(`select ${i}`);
      await sleep(1_500); // longer than the old front's 1 s idle hand-over
      for (let i = 0; i < 5; i++) await busy.query(`select ${i}`);
      expect((await idle.query('select 42')).rows).toEqual([['42']]);
    } finally {
      idle.end();
      busy.end();
    }
  });

  it('a pg Pool holding one idle connection while it uses another (LangChain’s pattern)', async () => {
    const pool = new pg.Pool({ host: front.host, port: front.port, user: 'postgres', max: 3 });
    try {
      const held = await pool.connect(); // checked out and left idle
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => pool.query('select $1::int as n', [i])),
      );
      expect(results.map((r) => r.rows[0].n)).toEqual([...Array(10).keys()]);
      expect((await held.query('select 7 as n')).rows[0].n).toBe(7);
      held.release();
    } finally {
      await pool.end();
    }
  });

  it('many clients interleave whole transactions without seeing each other’s', async () => {
    const clients = await Promise.all(Array.from({ length: 8 }, () => pgClient()));
    await Promise.all(clients.map((c) => c.connect()));
    try {
      await Promise.all(
        clients.map(async (client, i) => {
          for (let round = 0; round < 5; round++) {
            await client.query('begin');
            await client.query('insert into shared_probe values ($1)', [1000 + i]);
            const { rows } = await client.query(
              'select count(*)::int as n from shared_probe where id >= 1000',
            );
            // Only this client's own uncommitted row is visible inside its transaction.
            expect(rows[0].n).toBe(1);
            await client.query('rollback');
          }
        }),
      );
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
  });

  it('named prepared statements of different clients do not collide', async () => {
    const a = pgClient();
    const b = pgClient();
    await Promise.all([a.connect(), b.connect()]);
    try {
      for (let i = 0; i < 3; i++) {
        const [ra, rb] = await Promise.all([
          a.query({ name: 'probe', text: `select 'a' || $1::text as v`, values: [i] }),
          b.query({ name: 'probe', text: `select 'b' || $1::text as v`, values: [i] }),
        ]);
        expect([ra.rows[0].v, rb.rows[0].v]).toEqual([`a${i}`, `b${i}`]);
      }
    } finally {
      await Promise.all([a.end(), b.end()]);
    }
  });

  it('a client’s SETs stay its own and survive other clients’ turns', async () => {
    const a = pgClient();
    const b = pgClient();
    await Promise.all([a.connect(), b.connect()]);
    try {
      await a.query(`set statement_timeout = '7s'`);
      await a.query(`set application_name = 'client-a'`);
      expect((await b.query('show statement_timeout')).rows[0].statement_timeout).toBe('0');
      expect((await a.query('show statement_timeout')).rows[0].statement_timeout).toBe('7s');
      expect((await b.query('show application_name')).rows[0].application_name).not.toBe(
        'client-a',
      );
      await a.query('reset statement_timeout');
      expect((await a.query('show statement_timeout')).rows[0].statement_timeout).toBe('0');
    } finally {
      await Promise.all([a.end(), b.end()]);
    }
  });

  it('session state that cannot be shared is refused with a clear error, and the connection goes on', async () => {
    const client = pgClient();
    await client.connect();
    try {
      for (const statement of [
        'listen anything',
        'select pg_advisory_lock(1)',
        'create temp table t (x int)',
        `select set_config('kbchat.marker', 'x', false)`,
        'prepare p as select 1',
      ]) {
        await expect(client.query(statement), statement).rejects.toMatchObject({
          code: '0A000',
          message: expect.stringMatching(/not supported by the local transaction-pooling/),
        });
      }
      // Transaction-scoped forms are fine.
      await client.query('begin');
      await client.query(`select set_config('kbchat.marker', 'x', true)`);
      await client.query('select pg_advisory_xact_lock(1)');
      await client.query('commit');
      expect((await client.query('select 1 as one')).rows[0].one).toBe(1);
    } finally {
      await client.end();
    }
  });

  it('a client connects at once while another holds the session in a transaction', async () => {
    // Drivers bound connecting (5 s for pg's and Neon's pools here) far below the time a
    // statement may wait for its turn: logging in must not wait for a turn when the front
    // already knows the role (postgres: every client above logged in as it).
    const holder = await RawPgClient.connect(front.port);
    await holder.query('begin');
    await holder.query('insert into shared_probe values (7)');
    const connecting = RawPgClient.connect(front.port);
    try {
      const first = await Promise.race([connecting.then(() => 'connected'), sleep(1_000)]);
      expect(first).toBe('connected');
      // Its statement still waits for the transaction, and then sees what was committed.
      const counted = (await connecting).query('select count(*) from shared_probe where id = 7');
      await sleep(100);
      await holder.query('commit');
      expect((await counted).rows).toEqual([['1']]);
    } finally {
      await holder.query('rollback'); // when the test failed inside the transaction
      holder.end();
      (await connecting.catch(() => undefined))?.end();
    }
  });

  it('a client that terminates inside a transaction gives the session back, rolled back', async () => {
    // Its own database: a front that kept the session would leave the transaction open there.
    const ownDb = await PGlite.create();
    const own = await startSessionFront(ownDb);
    const quitter = await RawPgClient.connect(own.port);
    const other = await RawPgClient.connect(own.port);
    try {
      await quitter.query('create table quit_probe (id int)');
      await quitter.query('begin');
      await quitter.query('insert into quit_probe values (1)');
      quitter.end(); // Terminate, as pg's client.end() sends it
      const counted = await Promise.race([
        other.query('select count(*) from quit_probe'),
        sleep(3_000).then(() => 'still waiting for the session'),
      ]);
      expect(counted).toEqual({ rows: [['0']] });
    } finally {
      other.end();
      void own.close().then(() => ownDb.close());
    }
  });

  it('the idle-in-transaction bound ends a client that sits in a transaction, and rolls it back', async () => {
    const quick = await startSessionFront(db, { idleInTransactionMs: 300 });
    const stuck = await RawPgClient.connect(quick.port);
    const other = await RawPgClient.connect(quick.port);
    try {
      await stuck.query('begin');
      await stuck.query('insert into shared_probe values (-1)');
      const error = await stuck.closedByServer();
      expect(error?.C).toBe('25P03');
      expect((await other.query('select count(*) from shared_probe where id = -1')).rows).toEqual([
        ['0'],
      ]);
    } finally {
      other.end();
      await quick.close();
    }
  });

  it('a message that arrives in pieces inside a transaction does not leave an idle timer behind', async () => {
    const quick = await startSessionFront(db, { idleInTransactionMs: 300 });
    const busy = await RawPgClient.connect(quick.port);
    try {
      await busy.query('begin');
      // One statement sent in three pieces: the front waits for the rest of it twice.
      const text = Buffer.from(`select '${'x'.repeat(1000)}' as long\0`, 'utf8');
      const header = Buffer.alloc(5);
      header.write('Q', 0, 'ascii');
      header.writeInt32BE(text.length + 4, 1);
      const message = Buffer.concat([header, text]);
      for (const [start, end] of [
        [0, 300],
        [300, 600],
        [600, message.length],
      ] as const) {
        busy.socket.write(message.subarray(start, end));
        await sleep(50);
      }
      expect((await busy.readUntilReady()).error).toBeUndefined();
      // Busy, never idle for the bound, for longer than the bound.
      for (let i = 0; i < 8; i++) {
        expect((await busy.query('select 1')).error).toBeUndefined();
        await sleep(100);
      }
      expect((await busy.query('commit')).error).toBeUndefined();
    } finally {
      busy.end();
      await quick.close();
    }
  });
});

describe('users and login settings, as on a real server', () => {
  beforeAll(async () => {
    const admin = await RawPgClient.connect(front.port);
    for (const statement of [
      `create role front_app nologin`,
      `create table owned (id int, owner text)`,
      `insert into owned values (1, 'alice'), (2, 'bob')`,
      `alter table owned enable row level security`,
      `create policy by_owner on owned using (owner = current_setting('app.user', true))`,
      `grant select on owned to front_app`,
      `alter role front_app set statement_timeout = '9s'`,
    ]) {
      const { error } = await admin.query(statement);
      expect(error, statement).toBeUndefined();
    }
    admin.end();
  });

  it('a client that logs in as the application role is that role, with its settings, under row-level security', async () => {
    const app = pgClient({ user: 'front_app' });
    const owner = pgClient();
    await Promise.all([app.connect(), owner.connect()]);
    try {
      const who = await app.query('select current_user, session_user');
      expect(who.rows[0]).toEqual({ current_user: 'front_app', session_user: 'front_app' });
      expect((await app.query('show statement_timeout')).rows[0].statement_timeout).toBe('9s');
      expect((await app.query('select * from owned')).rows).toEqual([]);
      await app.query('begin');
      await app.query(`select set_config('app.user', 'alice', true)`);
      expect((await app.query('select id from owned')).rows).toEqual([{ id: 1 }]);
      await app.query('commit');
      // The superuser client in between is itself again.
      expect((await owner.query('select current_user')).rows[0].current_user).toBe('postgres');
      expect((await owner.query('select count(*)::int as n from owned')).rows[0].n).toBe(2);
    } finally {
      await Promise.all([app.end(), owner.end()]);
    }
  });

  it('the application role cannot make itself someone else', async () => {
    const app = pgClient({ user: 'front_app' });
    await app.connect();
    try {
      for (const statement of [
        'reset session authorization',
        'set session authorization postgres',
        'set role postgres',
        `select set_config('role', 'postgres', false)`,
      ]) {
        await expect(app.query(statement), statement).rejects.toHaveProperty('code');
      }
      expect((await app.query('select current_user')).rows[0].current_user).toBe('front_app');
    } finally {
      await app.end();
    }
  });

  it('an unknown role is refused at login', async () => {
    const ghost = pgClient({ user: 'no_such_role' });
    await expect(ghost.connect()).rejects.toMatchObject({ code: '28000' });
  });
});
