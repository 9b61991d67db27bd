// The database side of the floors: the workers' own statements run with nothing in between
// (`pg` on one open TCP connection to the stack's database front), and the same statements
// as the workers send them (one batch with the session check first, over the local proxy's
// HTTP /sql, with the Neon driver), to see what each layer adds.
import { SQL, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { drizzle } from 'drizzle-orm/node-postgres';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { httpDatabase, type DatabaseSettings } from '#shared/db/database';
import { loadKnowledgeStore, type SearchMode } from '../nearest-chunks-query.ts';
import { configuredEmbeddingModel } from '../../dev/stack/embedding-model.ts';

export interface SessionClaim {
  userId: string;
  epoch: number;
  superAdmin: boolean;
}

export interface Statement {
  text: string;
  values: unknown[];
}

export interface WorkerStatements {
  nearest(vector: number[], top: number): SQL;
  /** The query route's statement for a question, as the knowledge worker builds it. */
  search(vector: number[], question: string, top: number, mode: SearchMode): SQL;
  session(claim: SessionClaim): SQL;
  /** The list query built on a drizzle database (the worker's HTTP one, or a mock). */
  listOn(db: unknown, fileIds: string[]): BatchItem<'pg'>;
  render(query: SQL): Statement;
  renderList(fileIds: string[]): Statement;
}

export async function workerStatements(): Promise<WorkerStatements> {
  const { nearestChunksQuery, listFiles, searchQuery, queryTerms } = await loadKnowledgeStore();
  const dialect = new PgDialect();
  const mock = drizzle.mock();
  return {
    nearest: (vector, top) => nearestChunksQuery(vector, { top }),
    search: (vector, question, top, mode) =>
      searchQuery({
        mode,
        top,
        vector,
        embeddingModel: configuredEmbeddingModel(process.env),
        terms: queryTerms(question),
      }),
    listOn: (db, fileIds) => listFiles(db, { ids: fileIds }) as unknown as BatchItem<'pg'>,
    renderList(fileIds) {
      const { sql: text, params } = listFiles(mock, { ids: fileIds }).toSQL();
      return { text, values: params };
    },
    // As shared/db/request-db.ts writes it (not exported there).
    session: (claim) =>
      sql`select * from kbchat_session(${claim.userId}::uuid, ${claim.epoch}::int, ${claim.superAdmin})`,
    render(query) {
      const { sql: text, params } = dialect.sqlToQuery(query);
      return { text, values: params };
    },
  };
}

/** The claim a token of this user carries now (the session check's arguments). */
export async function claimOf(db: pg.Client, username: string): Promise<SessionClaim> {
  const { rows } = await db.query<{ id: string; session_epoch: number; is_super_admin: boolean }>(
    'select id, session_epoch, is_super_admin from users where username = $1',
    [username],
  );
  const user = rows[0];
  if (!user) throw new Error(`no user ${username}`);
  return { userId: user.id, epoch: user.session_epoch, superAdmin: user.is_super_admin };
}

export async function runStatement(db: pg.Client, statement: Statement): Promise<number> {
  return (await db.query(statement.text, statement.values)).rowCount ?? 0;
}

/** Whether the nearest-chunks statement uses the HNSW index with the database's settings. */
export async function nearestPlan(db: pg.Client, statement: Statement): Promise<string> {
  const { rows } = await db.query<{ 'QUERY PLAN': string }>(
    `explain ${statement.text}`,
    statement.values,
  );
  const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
  return /Index Scan using \S*hnsw\S*/.test(plan) ? 'hnsw index scan' : 'full scan (no index)';
}

/**
 * The batch a worker sends for one call: the session check, then its statements, as ONE
 * non-interactive transaction over HTTP /sql (drizzle neon-http, as shared/db/request-db.ts).
 */
export function workerSql(settings: DatabaseSettings) {
  const db = httpDatabase(settings, {});
  return {
    db,
    /** One statement alone (as `currentUser`), or several as one batch (as `run`/`batch`). */
    async send(first: BatchItem<'pg'> | SQL, ...rest: (BatchItem<'pg'> | SQL)[]): Promise<void> {
      const items = [first, ...rest].map((item) => (item instanceof SQL ? db.execute(item) : item));
      if (items.length === 1) await items[0];
      else await db.batch(items as [BatchItem<'pg'>, ...BatchItem<'pg'>[]]);
    },
  };
}
