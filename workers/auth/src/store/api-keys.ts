import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { AuditRecord } from '#shared/audit/record';
import { AppError } from '#shared/errors/app-error';
import { apiKeys, users } from '../db/schema';
import { keyRecorded } from './audit';
import type { AuthDb } from './users';

/** Keys one user may hold: plenty for scripts and integrations, a bound on a runaway script. */
export const MAX_API_KEYS_PER_USER = 50;

/** A key as stored, without its hash. */
export interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
}

const listed = {
  id: apiKeys.id,
  name: apiKeys.name,
  prefix: apiKeys.prefix,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
  expiresAt: apiKeys.expiresAt,
};

/**
 * Stores a new key (its hash and prefix) for a user, refused with a 409 when they hold the
 * most already. One batch: a per-user lock, then an insert that counts the user's keys under
 * it, so that keys created at the same moment cannot pass the limit together.
 */
export async function createApiKey(
  adb: AuthDb,
  values: { userId: string; name: string; prefix: string; hash: string; expiresAt: Date | null },
  record?: AuditRecord,
): Promise<ApiKeyRow> {
  const { userId, name, prefix, hash, expiresAt } = values;
  const id = crypto.randomUUID();
  const lock = adb.db.execute(
    sql`select pg_advisory_xact_lock(hashtext('kbchat.api_keys'), hashtext(${userId}))`,
  );
  // Raw SQL: drizzle's insert … select takes every column in table order, not named ones.
  const insert = adb.db.execute<{
    id: string;
    name: string;
    prefix: string;
    created_at: string;
    last_used_at: string | null;
    expires_at: string | null;
  }>(sql`
    insert into api_keys (id, user_id, name, prefix, hash, expires_at)
    select ${id}::uuid, ${userId}::uuid, ${name}, ${prefix}, ${hash}, ${expiresAt?.toISOString() ?? null}::timestamptz
    where (select count(*) from api_keys where user_id = ${userId}::uuid) < ${MAX_API_KEYS_PER_USER}
    returning id, name, prefix, created_at, last_used_at, expires_at`);
  const [, { rows }] = record
    ? await adb.batch([lock, insert, keyRecorded(adb, id, undefined, record)])
    : await adb.batch([lock, insert]);
  const row = rows[0];
  if (!row) {
    throw new AppError('too_many_api_keys', {
      detail: `A user holds at most ${MAX_API_KEYS_PER_USER} API keys: revoke one first.`,
    });
  }
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: new Date(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at),
    expiresAt: row.expires_at === null ? null : new Date(row.expires_at),
  };
}

/** A user's keys, newest first (at most MAX_API_KEYS_PER_USER: no paging needed). */
export const userApiKeys = (adb: AuthDb, userId: string) =>
  adb.db
    .select(listed)
    .from(apiKeys)
    .where(eq(apiKeys.userId, userId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));

/** Every user's keys, newest first, a page at a time, with whose they are. */
export async function allApiKeys(adb: AuthDb, page: number, size: number) {
  const [items, [total]] = await adb.batch([
    adb.db
      .select({ ...listed, userId: apiKeys.userId, username: users.username })
      .from(apiKeys)
      .innerJoin(users, eq(users.id, apiKeys.userId))
      .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
      .limit(size)
      .offset((page - 1) * size),
    adb.db.select({ n: count() }).from(apiKeys),
  ]);
  return { items, total: total?.n ?? 0 };
}

/** Deletes (revokes) every key of a user: part of disabling them (users.ts). */
export const revokeUserApiKeys = (adb: AuthDb, userId: string) =>
  adb.db.delete(apiKeys).where(eq(apiKeys.userId, userId));

/**
 * Deletes (revokes) a key: any key when `owner` is undefined (a super admin), else only one of
 * that user's. Whether it existed: someone else's key is as absent as an unknown one.
 */
export async function deleteApiKey(
  adb: AuthDb,
  id: string,
  owner: string | undefined,
  record?: AuditRecord,
): Promise<boolean> {
  const where: SQL | undefined =
    owner === undefined ? eq(apiKeys.id, id) : and(eq(apiKeys.id, id), eq(apiKeys.userId, owner));
  const remove = adb.db.delete(apiKeys).where(where).returning({ id: apiKeys.id });
  // Recorded before the delete, while the key's name is there to read.
  const deleted = record
    ? (await adb.batch([keyRecorded(adb, id, owner, record), remove]))[1]
    : await adb.run(remove);
  return deleted.length > 0;
}
