// Direct database access for tests: to look at what the workers stored, and to put back a row
// a test changed. Opens the database the way a worker does (see database-sessions.test.ts).
import { sql, TransactionRollbackError, type SQL } from 'drizzle-orm';
import type { PgTransactionConfig } from 'drizzle-orm/pg-core';
import { inject } from 'vitest';
import { openPool } from '#shared/db/database';
import { LOCAL_APP_LOGIN } from '../../dev/stack/app-role';

type Db = ReturnType<typeof openPool>['db'];
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export async function withDb<T>(work: (db: Db) => Promise<T>): Promise<T> {
  const stack = inject('stack');
  const { db, close } = openPool({ url: stack.databaseUrl, proxy: stack.databaseProxy }, {});
  try {
    return await work(db);
  } finally {
    await close();
  }
}

export async function queryRows<T extends Record<string, unknown>>(query: SQL): Promise<T[]> {
  return withDb(async (db) => (await db.execute<T>(query)).rows as T[]);
}

export interface UserRow extends Record<string, unknown> {
  id: string;
  username: string;
  password_hash: string;
  is_super_admin: boolean;
  disabled: boolean;
  session_epoch: number;
  created_at: string;
  updated_at: string;
}

export async function userRow(id: string): Promise<UserRow | undefined> {
  const [row] = await queryRows<UserRow>(
    sql`select id, username, password_hash, is_super_admin, disabled, session_epoch,
               created_at::text as created_at, updated_at::text as updated_at
        from users where id = ${id}`,
  );
  return row;
}

/** Puts a user row back exactly as it was (re-inserting it when it was deleted). */
export async function restoreUserRow(row: UserRow): Promise<void> {
  await withDb((db) =>
    db.execute(sql`
      insert into users (id, username, password_hash, is_super_admin, disabled, session_epoch,
                         created_at, updated_at)
      values (${row.id}, ${row.username}, ${row.password_hash}, ${row.is_super_admin},
              ${row.disabled}, ${row.session_epoch}, ${row.created_at}::timestamptz,
              ${row.updated_at}::timestamptz)
      on conflict (id) do update set
        username = excluded.username, password_hash = excluded.password_hash,
        is_super_admin = excluded.is_super_admin, disabled = excluded.disabled,
        session_epoch = excluded.session_epoch,
        created_at = excluded.created_at, updated_at = excluded.updated_at`),
  );
}

/**
 * What knowledge has stored: file, page and chunk rows, and objects in its bucket. Tests take
 * it before and after a failure to show that nothing was left behind.
 */
export async function storedCounts(bucket: R2Bucket) {
  const [rows] = await queryRows<{ files: number; chunks: number; pages: number }>(sql`
    select (select count(*)::int from files) as files, (select count(*)::int from chunks) as chunks,
           (select count(*)::int from file_pages) as pages`);
  return { ...rows!, objects: (await bucket.list()).objects.length };
}

/**
 * Statements as the workers run them: logged in as the application role's login (row-level
 * security applies), in one transaction that first says whom it acts for — a user's session
 * (`kbchat_session`, as every request batch starts), or nobody when `user` is undefined.
 */
export async function asAppRole<T>(
  user: { id: string; superAdmin?: boolean } | undefined,
  work: (tx: Tx) => Promise<T>,
  config?: PgTransactionConfig,
): Promise<T> {
  const stack = inject('stack');
  const url = new URL(stack.databaseUrl);
  url.username = LOCAL_APP_LOGIN;
  const { db, close } = openPool({ url: url.toString(), proxy: stack.databaseProxy }, {});
  try {
    return await db.transaction(async (tx) => {
      if (user) {
        const [row] = (
          await tx.execute<{ session_epoch: number }>(
            sql`select session_epoch from users where id = ${user.id}::uuid`,
          )
        ).rows;
        await tx.execute(
          sql`select kbchat_session(${user.id}::uuid, ${row!.session_epoch}::int, ${user.superAdmin ?? false})`,
        );
      }
      return work(tx);
    }, config);
  } finally {
    await close();
  }
}

/** The database's own message for a statement that fails (drizzle wraps it), or 'no error'. */
export async function databaseError(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (err) {
    return String((err as { cause?: unknown }).cause ?? err);
  }
  return 'no error';
}

/**
 * Runs `work` as the tables' owner in a transaction that is then rolled back, and returns what
 * it returned: the rows it wrote never exist for other tests (index entries it left point at
 * dead rows, as any aborted insert's do).
 */
export async function inRolledBackTransaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
  let result: { value: T } | undefined;
  await withDb((db) =>
    db.transaction(async (tx) => {
      result = { value: await work(tx) };
      tx.rollback();
    }),
  ).catch((error: unknown) => {
    if (!(error instanceof TransactionRollbackError)) throw error;
  });
  return result!.value;
}

/**
 * A new collection holding `files` files of `chunks` chunks each (as counted on the file row),
 * uploaded by the seeded admin: for tests that write chunks straight into the table.
 */
export async function scratchFiles(
  tx: Tx,
  files: number,
  chunks: number,
): Promise<{ admin: { id: string; session_epoch: number }; collection: string; files: string[] }> {
  const [admin] = (
    await tx.execute<{ id: string; session_epoch: number }>(
      sql`select id, session_epoch from users where lower(username) = 'admin'`,
    )
  ).rows;
  const collection = crypto.randomUUID();
  const ids = Array.from({ length: files }, () => crypto.randomUUID());
  await tx.execute(sql`insert into collections (id, name) values (${collection}, 'scratch')`);
  for (const [i, id] of ids.entries()) {
    await tx.execute(sql`
      insert into files (id, collection_id, name, size, sha256, pages, chunks, uploader_id, uploader_name)
      values (${id}, ${collection}, ${`scratch-${i}.pdf`}, 1, md5(${id}), 1, ${chunks}, ${admin!.id}, 'admin')`);
  }
  return { admin: admin!, collection, files: ids };
}
