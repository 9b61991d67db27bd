import { PGlite } from '@electric-sql/pglite';
import { Client, neon, neonConfig, type NeonQueryFunction } from '@neondatabase/serverless';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ws from 'ws';
import { FrontendScanner, UNTYPED } from './frontend-scanner.ts';
import { startNeonProxy, type NeonProxy } from './neon-proxy.ts';
import { queryMessage, SSL_REQUEST, SYNC_MESSAGE } from './pg-protocol.ts';
import { isLoopback, type ProxyStats } from './proxy-stats.ts';
import { startSessionFront, type SessionFront } from './session-front.ts';

// The proxy's round-trip counters, driven by the real Neon driver on both of its paths, the
// way the workers drive it: what a benchmark reads from GET /_stats before and after a request.
let db: PGlite;
let front: SessionFront;
let proxy: NeonProxy;
let databaseUrl: string;
let sql: NeonQueryFunction<false, false>;

beforeAll(async () => {
  db = await PGlite.create();
  front = await startSessionFront(db);
  proxy = await startNeonProxy({ allowed: [`${front.host}:${front.port}`] });
  databaseUrl = `postgres://postgres@${front.host}:${front.port}/postgres`;
  neonConfig.fetchEndpoint = () => `http://${proxy.address}/sql`;
  neonConfig.webSocketConstructor = ws;
  neonConfig.wsProxy = (host, port) => `${proxy.address}/v1?address=${host}:${port}`;
  neonConfig.useSecureWebSocket = false;
  neonConfig.pipelineTLS = false;
  neonConfig.pipelineConnect = false;
  sql = neon(databaseUrl);
});

afterAll(async () => {
  await proxy.close();
  await front.close();
  await db.close();
});

/** The counters' change while `work` runs. */
async function delta(work: () => Promise<unknown>): Promise<ProxyStats> {
  const before = proxy.stats();
  await work();
  const after = proxy.stats();
  return Object.fromEntries(
    Object.entries(after).map(([key, value]) => [key, value - before[key as keyof ProxyStats]]),
  ) as unknown as ProxyStats;
}

describe('round trips over HTTP /sql', () => {
  it('one statement is one request carrying one statement', async () => {
    const counted = await delta(() => sql`select ${1}::int as n`);
    expect(counted).toMatchObject({ sqlRequests: 1, sqlStatements: 1, wsConnections: 0 });
  });

  it('a non-interactive transaction is one request, however many statements', async () => {
    const counted = await delta(() =>
      sql.transaction([sql`select 1`, sql`select ${2}::int`, sql`select 3`]),
    );
    expect(counted).toMatchObject({ sqlRequests: 1, sqlStatements: 3 });
  });

  it('a statement that fails still made its round trip', async () => {
    const counted = await delta(() => sql`select 1 / 0`.catch(() => undefined));
    expect(counted).toMatchObject({ sqlRequests: 1, sqlStatements: 1 });
  });
});

describe('round trips over the WebSocket relay', () => {
  it('a connection, then one round trip per statement and per transaction step', async () => {
    const client = new Client(databaseUrl);
    const connected = await delta(() => client.connect());
    expect(connected).toMatchObject({ wsConnections: 1, wsRoundTrips: 0, sqlRequests: 0 });
    try {
      // Extended protocol (parameters): Parse/Bind/Describe/Execute/Sync, one Sync.
      const statement = await delta(() => client.query('select $1::int as n', [7]));
      expect(statement).toMatchObject({ wsRoundTrips: 1, wsConnections: 0 });
      const transaction = await delta(async () => {
        await client.query('begin');
        await client.query('select $1::text', ['inside']);
        await client.query('commit');
      });
      expect(transaction.wsRoundTrips).toBe(3);
      expect(transaction.wsMessages).toBeGreaterThanOrEqual(3);
    } finally {
      await client.end();
    }
  });
});

describe('GET /_stats', () => {
  it('answers the counters as JSON to a loopback client', async () => {
    await sql`select 1`;
    const res = await fetch(`http://${proxy.address}/_stats`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const body = (await res.json()) as ProxyStats;
    expect(body).toEqual(proxy.stats());
    expect(body.sqlRequests).toBeGreaterThan(0);
  });

  it('is for reading only', async () => {
    const res = await fetch(`http://${proxy.address}/_stats`, { method: 'POST' });
    expect(res.status).toBe(405);
  });

  it('knows loopback addresses, IPv4-mapped ones included', () => {
    for (const address of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) {
      expect(isLoopback(address), address).toBe(true);
    }
    for (const address of ['10.0.0.1', '::ffff:192.168.1.2', '1127.0.0.1', '', undefined]) {
      expect(isLoopback(address), String(address)).toBe(false);
    }
  });
});

describe('FrontendScanner', () => {
  const stream = Buffer.concat([
    // An SSL request answered "N", then the startup message, then a simple query and a Sync.
    (() => {
      const ssl = Buffer.alloc(8);
      ssl.writeInt32BE(8, 0);
      ssl.writeInt32BE(SSL_REQUEST, 4);
      return ssl;
    })(),
    (() => {
      const body = Buffer.from('user\0postgres\0\0');
      const startup = Buffer.alloc(8);
      startup.writeInt32BE(8 + body.length, 0);
      startup.writeInt32BE(196608, 4);
      return Buffer.concat([startup, body]);
    })(),
    queryMessage(`select '${'x'.repeat(5000)}'`),
    SYNC_MESSAGE,
  ]);
  const expected = [UNTYPED, UNTYPED, 0x51, 0x53];

  it('reports each message type once, however the bytes are split', () => {
    for (const size of [1, 2, 3, 7, 64, stream.length]) {
      const types: number[] = [];
      const scanner = new FrontendScanner((type) => types.push(type));
      for (let at = 0; at < stream.length; at += size) scanner.scan(stream.subarray(at, at + size));
      expect(types, `chunks of ${size}`).toEqual(expected);
    }
  });
});
