import { sql, type SQL } from 'drizzle-orm';
import type { BatchItem, BatchResponse } from 'drizzle-orm/batch';
import type { NeonDatabase } from 'drizzle-orm/neon-serverless';
import type { SessionClaim, SessionGate } from '../auth/session';
import { unauthorised } from '../service';
import { httpDatabase, openPool, type DatabaseSettings, type HttpDatabase } from './database';
import { sqlStateOf } from './sql-state';

/** The user as the database has them now, returned by the session check. */
export interface SessionUser {
  id: string;
  username: string;
  is_super_admin: boolean;
  created_at: string;
}

type Item = BatchItem<'pg'>;
type Tx<S extends Record<string, unknown>> = Parameters<
  Parameters<NeonDatabase<S>['transaction']>[0]
>[0];

/**
 * A call's way to the database. Every statement or batch is ONE round trip (Neon's HTTP
 * path); when the call acts for a user, the same round trip first runs
 * `kbchat_session(user, epoch)`, which refuses an ended session (the batch rolls back, the
 * call answers 401) and sets `kbchat.user_id` / `kbchat.role` for the statements after it.
 */
export interface RequestDb<S extends Record<string, unknown>> {
  /** For building statements; run them with `run` or `batch`. */
  readonly db: HttpDatabase<S>;
  /** One statement, with the session check in the same round trip. */
  run<Q extends Item>(query: Q): Promise<BatchResponse<[Q]>[0]>;
  /** Statements as one non-interactive transaction: all or nothing, one round trip. */
  batch<Q extends readonly [Item, ...Item[]]>(queries: Q): Promise<BatchResponse<Q>>;
  /** Only the session check: the current user, or 401. */
  currentUser(): Promise<SessionUser>;
  /**
   * An interactive transaction over a WebSocket session (the session check first), for what
   * one HTTP request cannot carry: statements or answers of more than 10 MB.
   */
  transaction<T>(work: (tx: Tx<S>) => Promise<T>): Promise<T>;
}

/** SQLSTATE raised by kbchat_session (migrations) when the session has ended. */
export const SESSION_ENDED = 'KBS01';

export function requestDb<S extends Record<string, unknown>>(
  settings: DatabaseSettings,
  schema: S,
  gate: SessionGate | undefined,
  waitUntil?: (promise: Promise<unknown>) => void,
): RequestDb<S> {
  const opening: Opening | undefined = gate && {
    statement: sessionSql(gate.claim),
    forUser: true,
    done: () => gate.confirm(),
  };
  return scopedDb(settings, schema, opening, waitUntil);
}

/**
 * The database for the ingestion of one file (the pipeline, the watchdog's revival, an upload
 * waiting for its file): it acts for no user, so every batch first runs `kbchat_ingest(file)`,
 * and the row-level security policies let it see and write that file's rows and nothing else.
 */
export function ingestDb<S extends Record<string, unknown>>(
  settings: DatabaseSettings,
  schema: S,
  fileId: string,
): RequestDb<S> {
  return scopedDb(settings, schema, {
    statement: sql`select kbchat_ingest(${fileId}::uuid)`,
    forUser: false,
    done: () => undefined,
  });
}

/**
 * The database for a re-index job's workflow (workers/knowledge/src/reindex): every batch first
 * sets `kbchat.reindex_job`, which lets it read and write that job's row (reindex_jobs_workflow);
 * with a file, also `kbchat_ingest(file)`, which lets it read that file's chunks and write their
 * new vectors, as the file's ingestion would.
 */
export function reindexDb<S extends Record<string, unknown>>(
  settings: DatabaseSettings,
  schema: S,
  jobId: string,
  fileId?: string,
): RequestDb<S> {
  const statement = fileId
    ? sql`select set_config('kbchat.reindex_job', ${jobId}, true), kbchat_ingest(${fileId}::uuid)`
    : sql`select set_config('kbchat.reindex_job', ${jobId}, true)`;
  return scopedDb(settings, schema, { statement, forUser: false, done: () => undefined });
}

/** The statement a batch starts with, which says whom it acts for. */
interface Opening {
  statement: SQL;
  /** The statement is kbchat_session: it answers the user. */
  forUser: boolean;
  done(): void;
}

function scopedDb<S extends Record<string, unknown>>(
  settings: DatabaseSettings,
  schema: S,
  opening: Opening | undefined,
  waitUntil?: (promise: Promise<unknown>) => void,
): RequestDb<S> {
  const db = httpDatabase(settings, schema);

  async function checked<T>(work: () => Promise<T>): Promise<T> {
    try {
      const result = await work();
      opening?.done();
      return result;
    } catch (err) {
      throw sessionEnded(err) ? unauthorised('session ended') : err;
    }
  }

  async function batch<Q extends readonly [Item, ...Item[]]>(queries: Q) {
    if (!opening)
      return db.batch(queries as unknown as [Item, ...Item[]]) as Promise<BatchResponse<Q>>;
    const [, ...results] = await checked(() =>
      db.batch([db.execute(opening.statement), ...queries] as unknown as [Item, ...Item[]]),
    );
    return results as unknown as BatchResponse<Q>;
  }

  return {
    db,
    batch,
    run: async (query) => (await batch([query]))[0],
    async currentUser() {
      if (!opening?.forUser) throw unauthorised('no session');
      const { rows } = await checked(() =>
        db.execute<SessionUser & Record<string, unknown>>(opening.statement),
      );
      return rows[0]!;
    },
    async transaction(work) {
      const pool = openPool(settings, schema);
      try {
        return await checked(async () => {
          // Connect through a plain statement first: in workerd, a connection that fails while
          // a transaction checks out a NEW pooled client is an uncaught exception that kills
          // the request (no 503, no clean-up); failing here it is an ordinary rejection, and
          // the transaction then reuses the open connection. Not on the hot path: only the
          // few calls that need a session come here.
          await pool.db.execute(sql`select 1`);
          return pool.db.transaction(async (tx) => {
            if (opening) await tx.execute(opening.statement);
            return work(tx);
          });
        });
      } finally {
        if (waitUntil) waitUntil(pool.close());
        else await pool.close();
      }
    },
  };
}

const sessionSql = (claim: SessionClaim) =>
  sql`select * from kbchat_session(${claim.userId}::uuid, ${claim.epoch}::int, ${claim.role === 'SUPER_ADMIN'}, ${claim.sessionId ?? null}::uuid)`;

function sessionStatement(db: HttpDatabase<Record<string, unknown>>, claim: SessionClaim) {
  return db.execute<SessionUser & Record<string, unknown>>(sessionSql(claim));
}

/** The session check on its own: for a call that runs no statement of its own. */
export async function checkSession(settings: DatabaseSettings, claim: SessionClaim) {
  try {
    await sessionStatement(httpDatabase(settings, {}), claim);
  } catch (err) {
    throw sessionEnded(err) ? unauthorised('session ended') : err;
  }
}

/** The user of an API key as kbchat_key_session finds them, with their session epoch. */
export interface KeySessionUser extends SessionUser {
  session_epoch: number;
  key_id: string;
}

/**
 * An API key's session, found by the key's hash: its user as they are now, or 401 for a key
 * that is unknown or revoked, or whose user is disabled or deleted (the same KBS01 as an
 * ended session). One statement; the call's own batches then check the epoch it answers.
 */
export async function keySession(
  settings: DatabaseSettings,
  hash: string,
): Promise<KeySessionUser> {
  try {
    const { rows } = await httpDatabase(settings, {}).execute<
      KeySessionUser & Record<string, unknown>
    >(sql`select * from kbchat_key_session(${hash})`);
    return rows[0]!;
  } catch (err) {
    throw sessionEnded(err) ? unauthorised('api key refused') : err;
  }
}

const sessionEnded = (err: unknown) => sqlStateOf(err) === SESSION_ENDED;
