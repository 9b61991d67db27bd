import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { startSessionFront } from './session-front.ts';
import { startWsRelay, type WsRelay } from './ws-relay.ts';

export interface RunningDatabase {
  /** What the workers get as DATABASE_URL. */
  databaseUrl: string;
  /** What the workers get as DATABASE_WS_PROXY: the relay, or '' when the driver goes to Neon. */
  wsProxy: string;
  /** For the start-up banner, without credentials. */
  description: string;
  /** Takes the database away from the workers (its relay stops) and brings it back. */
  suspend(): Promise<void>;
  resume(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The database the local stack talks to: a given DATABASE_URL when there is one (Neon
 * directly, any other Postgres through the local relay), otherwise PGlite with pgvector,
 * persisted in `dataDir` (or in memory), behind the per-session front and the relay.
 */
export async function startDatabase(options: {
  externalUrl?: string;
  dataDir?: string;
}): Promise<RunningDatabase> {
  if (options.externalUrl) return useExternal(options.externalUrl);
  return startEmbedded(options.dataDir);
}

async function startEmbedded(dataDir: string | undefined): Promise<RunningDatabase> {
  if (dataDir) await mkdir(dataDir, { recursive: true });
  const pg = await PGlite.create({ ...(dataDir ? { dataDir } : {}), extensions: { vector } });
  const front = await startSessionFront(pg);
  let relay: WsRelay;
  try {
    relay = await startWsRelay({ allowed: [`${front.host}:${front.port}`] });
  } catch (err) {
    await front.close();
    await pg.close();
    throw err;
  }
  return {
    databaseUrl: `postgres://postgres@${front.host}:${front.port}/postgres`,
    wsProxy: relay.address,
    description: `PGlite + pgvector (${dataDir ?? 'in memory'}) on ${front.host}:${front.port}, relay ws://${relay.address}`,
    suspend: () => relay.suspend(),
    resume: () => relay.resume(),
    async close() {
      await relay.close();
      await front.close();
      // close() checkpoints and flushes the data folder, so a restart finds every row.
      await pg.close();
    },
  };
}

export function isNeonHost(hostname: string): boolean {
  return hostname.endsWith('.neon.tech') || hostname.endsWith('.neon.build');
}

async function useExternal(databaseUrl: string): Promise<RunningDatabase> {
  const url = new URL(databaseUrl);
  const safe = `${url.protocol}//${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`;
  if (isNeonHost(url.hostname)) {
    const refuse = () => Promise.reject(new Error('Neon cannot be suspended from here'));
    return {
      databaseUrl,
      wsProxy: '',
      description: `Neon ${safe}`,
      suspend: refuse,
      resume: refuse,
      close: async () => {},
    };
  }
  const relay = await startWsRelay({ allowed: [`${url.hostname}:${url.port || '5432'}`] });
  return {
    databaseUrl,
    wsProxy: relay.address,
    description: `Postgres ${safe} through relay ws://${relay.address}`,
    suspend: () => relay.suspend(),
    resume: () => relay.resume(),
    close: () => relay.close(),
  };
}
