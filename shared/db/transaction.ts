import { sql } from 'drizzle-orm';
import type { NeonDatabase } from 'drizzle-orm/neon-serverless';

type Tx<S extends Record<string, unknown>> = Parameters<
  Parameters<NeonDatabase<S>['transaction']>[0]
>[0];

/**
 * The one way to run a transaction. It connects through a plain query first: in workerd, a
 * connection that fails while a transaction checks out a NEW pooled client surfaces as an
 * uncaught exception that kills the request (no 503, no clean-up). Failing here it is an
 * ordinary rejected query, and the transaction then reuses the open connection.
 */
export async function transaction<S extends Record<string, unknown>, T>(
  db: NeonDatabase<S>,
  work: (tx: Tx<S>) => Promise<T>,
): Promise<T> {
  await db.execute(sql`select 1`);
  return db.transaction(work);
}
