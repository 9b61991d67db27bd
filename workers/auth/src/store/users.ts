import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { AuditRecord } from '#shared/audit/record';
import type { RequestDb } from '#shared/db/request-db';
import { sqlStateOf } from '#shared/db/sql-state';
import { AppError, notFound } from '#shared/errors/app-error';
import { revokeUserApiKeys } from './api-keys';
import { userRecorded } from './audit';
import type * as schema from '../db/schema';
import { users, type User } from '../db/schema';

export type AuthDb = RequestDb<typeof schema>;

/** Usernames are compared NFKC-normalised and without regard to case. */
const byName = (username: string) =>
  sql`lower(${users.username}) = lower(${username.normalize('NFKC')})`;

export const userByName = (adb: AuthDb, username: string) =>
  adb.db.select().from(users).where(byName(username)).limit(1);

/**
 * The same password stored under the current hashing parameters: not a change of password, so
 * the user's sessions stay (unlike setPassword).
 */
export const rehashedPassword = (adb: AuthDb, id: string, passwordHash: string) =>
  adb.db.update(users).set({ passwordHash }).where(eq(users.id, id));

export const userById = (adb: AuthDb, id: string) =>
  adb.db.select().from(users).where(eq(users.id, id)).limit(1);

export async function requireUser(adb: AuthDb, id: string): Promise<User> {
  const [user] = await adb.run(userById(adb, id));
  if (!user) throw notFound('user');
  return user;
}

/** Creates a user (recorded in the same batch); a name taken in any letter case is a 409. */
export async function createUser(
  adb: AuthDb,
  values: { username: string; passwordHash: string; isSuperAdmin?: boolean },
  record?: AuditRecord,
): Promise<User> {
  const id = crypto.randomUUID();
  const insert = adb.db
    .insert(users)
    .values({ id, ...values })
    .onConflictDoNothing()
    .returning();
  const [user] = record
    ? (await adb.batch([insert, userRecorded(adb, id, record)]))[0]
    : await adb.run(insert);
  if (!user) throw new AppError('username_taken');
  return user;
}

export async function listUsers(adb: AuthDb, page: number, size: number) {
  const [items, [total]] = await adb.batch([
    adb.db
      .select()
      .from(users)
      .orderBy(asc(users.createdAt), asc(users.id))
      .limit(size)
      .offset((page - 1) * size),
    adb.db.select({ n: count() }).from(users),
  ]);
  return { items, total: total?.n ?? 0 };
}

/** Moves the user's session epoch on: every token issued before stops working at once. */
export const endSessions = sql`${users.sessionEpoch} + 1`;

/**
 * Sets a new password hash and ends the user's sessions; `expectedHash` (when given) makes it
 * a compare-and-set, so a password checked a moment ago cannot have changed meanwhile.
 */
export async function setPassword(
  adb: AuthDb,
  id: string,
  passwordHash: string,
  expectedHash?: string,
  record?: AuditRecord,
): Promise<User | undefined> {
  const where = expectedHash
    ? and(eq(users.id, id), eq(users.passwordHash, expectedHash))
    : eq(users.id, id);
  const update = adb.db
    .update(users)
    .set({ passwordHash, sessionEpoch: endSessions, updatedAt: new Date() })
    .where(where)
    .returning();
  // Recorded only when the password is now this one (a compare-and-set that lost records nothing).
  const [user] = record
    ? (
        await adb.batch([
          update,
          userRecorded(adb, id, record, eq(users.passwordHash, passwordHash)),
        ])
      )[0]
    : await adb.run(update);
  return user;
}

/** The statement that ends every session of a user, answering the user (to batch it). */
export const endingSessions = (adb: AuthDb, id: string) =>
  adb.db
    .update(users)
    .set({ sessionEpoch: endSessions, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();

/**
 * Ends one session (a token, by its jti) until the token would have expired at the latest
 * (kbchat_end_session: for the batch's own user only).
 */
export const endingSession = (adb: AuthDb, sessionId: string, ttlSeconds: number) =>
  adb.db.execute(
    sql`select kbchat_end_session(${sessionId}::uuid, now() + make_interval(secs => ${ttlSeconds}))`,
  );

/** Ends every session of a user (log out everywhere). */
export async function endAllSessions(adb: AuthDb, id: string, record?: AuditRecord): Promise<User> {
  const [user] = record
    ? (await adb.batch([endingSessions(adb, id), userRecorded(adb, id, record)]))[0]
    : await adb.run(endingSessions(adb, id));
  if (!user) throw notFound('user');
  return user;
}

/**
 * The guard around a change that could take away the last active super admin: one batch of
 * [superAdminLock, the change, superAdminCheck]. The lock serialises such changes; the check
 * (kbchat_assert_super_admin_remains) raises KBA01 when no active super admin is left, and the
 * whole batch rolls back. Single sign-on's role claim uses the same (store/sso.ts).
 */
export const superAdminLock = (adb: AuthDb) =>
  adb.db.execute(sql`select pg_advisory_xact_lock(hashtext('kbchat.super_admins'))`);
export const superAdminCheck = (adb: AuthDb) =>
  adb.db.execute(sql`select kbchat_assert_super_admin_remains()`);

/**
 * Changes that could take away the last active super admin (demote, disable, delete): one
 * batch of [lock, change, check] — the check raises when no active super admin is left and
 * the whole batch rolls back. A role change or disabling ends the user's sessions; disabling
 * also revokes (deletes) every API key of the user in the same batch, so that enabling them
 * again brings back no credential made before (deleting the user cascades to their keys).
 */
export async function changeUserGuardingLastAdmin(
  adb: AuthDb,
  id: string,
  change: { isSuperAdmin?: boolean; disabled?: boolean } | 'delete',
  record?: AuditRecord,
): Promise<User | undefined> {
  const lock = superAdminLock(adb);
  const check = superAdminCheck(adb);
  const apply =
    change === 'delete'
      ? adb.db.delete(users).where(eq(users.id, id)).returning()
      : adb.db
          .update(users)
          .set({
            ...change,
            // Every change of role or status ends the sessions: a token's role is then current.
            sessionEpoch: sessionEpochAfter(change),
            updatedAt: new Date(),
          })
          .where(eq(users.id, id))
          .returning();
  try {
    const disabling = change !== 'delete' && change.disabled === true;
    // Recorded before the change (a deleted user's name is still there to read), in its batch:
    // a change that the check rolls back leaves no record either.
    const recorded = record ? userRecorded(adb, id, record) : adb.db.execute(sql`select 1`);
    const [, , [user]] = disabling
      ? await adb.batch([lock, recorded, apply, revokeUserApiKeys(adb, id), check])
      : await adb.batch([lock, recorded, apply, check]);
    if (!user) throw notFound('user');
    return change === 'delete' ? undefined : user;
  } catch (err) {
    if (sqlStateOf(err) === 'KBA01') {
      throw new AppError('last_super_admin');
    }
    throw err;
  }
}

/** A role or status that actually changes ends the sessions; setting the same value does not. */
function sessionEpochAfter(change: { isSuperAdmin?: boolean; disabled?: boolean }) {
  const changed = [
    change.isSuperAdmin === undefined
      ? sql`false`
      : sql`${users.isSuperAdmin} <> ${change.isSuperAdmin}`,
    change.disabled === undefined ? sql`false` : sql`${users.disabled} <> ${change.disabled}`,
  ];
  return sql`case when ${sql.join(changed, sql` or `)} then ${users.sessionEpoch} + 1 else ${users.sessionEpoch} end`;
}
