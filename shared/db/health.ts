import { sql } from 'drizzle-orm';
import { httpDatabase, type DatabaseSettings } from './database';

export interface DatabaseHealth {
  ok: true;
  latency_ms: number;
  server_version: string;
  pgvector: string | null;
}

/** A real round trip: the server answers, and says whether pgvector is installed. */
export async function checkDatabase(settings: DatabaseSettings): Promise<DatabaseHealth> {
  const started = Date.now();
  const { rows } = await httpDatabase(settings, {}).execute<{
    server_version: string;
    pgvector: string | null;
  }>(sql`
    select current_setting('server_version') as server_version,
           (select extversion from pg_extension where extname = 'vector') as pgvector`);
  const row = rows[0];
  return {
    ok: true as const,
    latency_ms: Date.now() - started,
    server_version: row?.server_version ?? 'unknown',
    pgvector: row?.pgvector ?? null,
  };
}
