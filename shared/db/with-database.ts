import type { NeonDatabase } from 'drizzle-orm/neon-serverless';
import { openDatabase, type DatabaseSettings } from './database';

/**
 * Runs `work` with a database of its own and ends the pool afterwards: through `waitUntil`
 * when the caller has one (closing then never delays the answer), awaited otherwise. The shape
 * every handler, hook and RPC method uses.
 */
export async function withDatabase<S extends Record<string, unknown>, T>(
  settings: DatabaseSettings,
  schema: S,
  waitUntil: ((promise: Promise<unknown>) => void) | undefined,
  work: (db: NeonDatabase<S>) => Promise<T>,
): Promise<T> {
  const { db, close } = openDatabase(settings, schema);
  try {
    return await work(db);
  } finally {
    if (waitUntil) waitUntil(close());
    else await close();
  }
}
