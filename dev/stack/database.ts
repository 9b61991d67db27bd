import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { startSessionFront } from './session-front.ts';
import { startNeonProxy, type NeonProxy } from './neon-proxy.ts';

export interface RunningDatabase {
  /** What the workers get as DATABASE_URL. */
  databaseUrl: string;
  /** What the workers get as DATABASE_PROXY: the local Neon proxy stand-in, or '' when the driver goes to Neon. */
  proxy: string;
  /** For the start-up banner, without credentials. */
  description: string;
  /** Takes the database away from the workers (its proxy stops) and brings it back. */
  suspend(): Promise<void>;
  resume(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The database the local stack talks to: a given DATABASE_URL when there is one (Neon
 * directly, any other Postgres through the local proxy), otherwise PGlite with pgvector,
 * persisted in `dataDir` (or in memory), behind the transaction-pooling front and the proxy.
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
  let proxy: NeonProxy;
  try {
    proxy = await startNeonProxy({ allowed: [`${front.host}:${front.port}`] });
  } catch (err) {
    await front.close();
    await pg.close();
    throw err;
  }
  return {
    databaseUrl: `postgres://postgres@${front.host}:${front.port}/postgres`,
    proxy: proxy.address,
    description: `PGlite + pgvector (${dataDir ?? 'in memory'}) on ${front.host}:${front.port}, proxy http://${proxy.address}`,
    suspend: () => proxy.suspend(),
    resume: () => proxy.resume(),
    async close() {
      await proxy.close();
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
      proxy: '',
      description: `Neon ${safe}`,
      suspend: refuse,
      resume: refuse,
      close: async () => {},
    };
  }
  const proxy = await startNeonProxy({ allowed: [`${url.hostname}:${url.port || '5432'}`] });
  return {
    databaseUrl,
    proxy: proxy.address,
    description: `Postgres ${safe} through the local proxy http://${proxy.address}`,
    suspend: () => proxy.suspend(),
    resume: () => proxy.resume(),
    close: () => proxy.close(),
  };
}
