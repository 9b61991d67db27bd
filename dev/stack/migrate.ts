import path from 'node:path';
import { neonConfig } from '@neondatabase/serverless';
import { migrate } from 'drizzle-orm/neon-serverless/migrator';
import ws from 'ws';
import { openPool, type DatabaseSettings } from '#shared/db/database';
import { backfillSearchTerms } from '../../workers/knowledge/src/db/backfill-search-terms.ts';
import { stampEmbeddingModel } from '../../workers/knowledge/src/db/stamp-embedding-model.ts';
import { configuredEmbeddingModel } from './embedding-model.ts';

const MIGRATIONS = path.resolve(import.meta.dirname, '../../migrations');

/**
 * Applies every pending migration in migrations/ through the same driver the workers use,
 * then the data steps SQL cannot do (chunks' keyword-search terms, made by the TypeScript
 * tokenizer; the embedding model of chunks stored before it was recorded, from `env`). The
 * only place schema changes happen: never in a request handler.
 */
export async function applyMigrations(
  settings: DatabaseSettings,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  neonConfig.webSocketConstructor = ws;
  const { db, close } = openPool(settings, {});
  try {
    await migrate(db, { migrationsFolder: MIGRATIONS });
    await backfillSearchTerms(db);
    await stampEmbeddingModel(db, configuredEmbeddingModel(env));
  } finally {
    await close();
  }
}

/** Runs work on a session to the database (as the connection string's role), then closes it. */
export async function withPool<T>(
  settings: DatabaseSettings,
  work: (db: ReturnType<typeof openPool>['db']) => Promise<T>,
): Promise<T> {
  neonConfig.webSocketConstructor = ws;
  const { db, close } = openPool(settings, {});
  try {
    return await work(db);
  } finally {
    await close();
  }
}
