// Fixed costs of the layers between a client and the database, to read the route figures by:
// an HTTP request the gateway answers itself, one it passes to a module worker that does no
// I/O; `select 1` on an open `pg` connection, on a fresh one, and over the local HTTP /sql
// path (Neon driver).
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { DatabaseSettings } from '#shared/db/database';
import { stats, type Stats } from '../stats.ts';
import { workerSql } from './database-floors.ts';
import { interleaved } from './interleaved.ts';
import { countRoundTrips, type RoundTrips } from './round-trips.ts';

export interface Probes {
  gateway_alone: Stats & { route: string };
  worker_hop_no_io: Stats & { route: string; round_trips: RoundTrips };
  pg_select_1_open_connection: Stats;
  pg_select_1_fresh_connection: Stats;
  http_sql_select_1: Stats;
}

export async function measureProbes(options: {
  base: string;
  db: pg.Client;
  settings: DatabaseSettings;
  proxyAddress: string;
  samples: number;
}): Promise<Probes> {
  const http = workerSql(options.settings);
  // Guest route, served from the worker's configuration: no database, no model.
  const jwks = `${options.base}/moduleauth/.well-known/jwks.json`;
  const gatewayHealth = `${options.base}/health`;
  const get = async (url: string) => {
    const res = await fetch(url, { signal: AbortSignal.timeout(15_000) });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  };
  const hop = () => get(jwks);
  const measured = await interleaved(options.samples, 5, {
    gateway: () => get(gatewayHealth),
    hop,
    pg_open: async () => {
      await options.db.query('select 1');
    },
    pg_fresh: async () => {
      const fresh = new pg.Client({ connectionString: options.settings.url });
      fresh.on('error', () => undefined); // a lost connection fails the query that needed it
      await fresh.connect();
      await fresh.query('select 1');
      await fresh.end();
    },
    http_sql: () => http.send(sql`select 1`),
  });
  return {
    gateway_alone: { route: 'GET /health (the gateway itself)', ...stats(measured.gateway!) },
    worker_hop_no_io: {
      route: 'GET /moduleauth/.well-known/jwks.json',
      ...stats(measured.hop!),
      round_trips: await countRoundTrips(options.proxyAddress, hop, 3),
    },
    pg_select_1_open_connection: stats(measured.pg_open!),
    pg_select_1_fresh_connection: stats(measured.pg_fresh!),
    http_sql_select_1: stats(measured.http_sql!),
  };
}
