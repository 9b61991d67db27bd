import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import type { NeonDatabase } from 'drizzle-orm/neon-serverless';
import { transaction } from '../../../shared/db/transaction';
import { AppError, notFound } from '../../../shared/errors/app-error';
import type * as schema from './db/schema';
import { users, type User } from './db/schema';

export type AuthDb = NeonDatabase<typeof schema>;

const byName = (username: string) => sql`lower(${users.username}) = lower(${username})`;

export async function findUserByName(db: AuthDb, username: string): Promise<User | undefined> {
  const [user] = await db.select().from(users).where(byName(username)).limit(1);
  return user;
}

export async function findUserById(db: AuthDb, id: string): Promise<User | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return user;
}

export async function requireUser(db: AuthDb, id: string): Promise<User> {
  const user = await findUserById(db, id);
  if (!user) throw notFound('No such user.');
  return user;
}

/** Creates a user; a name taken in any letter case is a 409. */
export async function createUser(
  db: AuthDb,
  values: { username: string; passwordHash: string; isSuperAdmin?: boolean },
): Promise<User> {
  const [user] = await db.insert(users).values(values).onConflictDoNothing().returning();
  if (!user) throw new AppError(409, 'username_taken', 'That username is taken.');
  return user;
}

export async function listUsers(db: AuthDb, page: number, size: number) {
  const [items, [total]] = await Promise.all([
    db
      .select()
      .from(users)
      .orderBy(asc(users.createdAt), asc(users.id))
      .limit(size)
      .offset((page - 1) * size),
    db.select({ n: count() }).from(users),
  ]);
  return { items, total: total?.n ?? 0 };
}

export async function setPasswordHash(db: AuthDb, id: string, passwordHash: string) {
  await db.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, id));
}

/**
 * Changes that could take away the last active super admin (demote, disable, delete) run
 * under one advisory lock, so two concurrent changes cannot both pass the check.
 */
export async function changeUserGuardingLastAdmin(
  db: AuthDb,
  id: string,
  change: { isSuperAdmin?: boolean; disabled?: boolean } | 'delete',
): Promise<User | undefined> {
  return transaction(db, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('kbchat.super_admins'))`);
    const [target] = await tx.select().from(users).where(eq(users.id, id)).for('update');
    if (!target) throw notFound('No such user.');
    const staysActiveAdmin =
      change !== 'delete' &&
      (change.isSuperAdmin ?? target.isSuperAdmin) &&
      !(change.disabled ?? target.disabled);
    if (target.isSuperAdmin && !target.disabled && !staysActiveAdmin) {
      const [others] = await tx
        .select({ n: count() })
        .from(users)
        .where(and(eq(users.isSuperAdmin, true), eq(users.disabled, false), ne(users.id, id)));
      if ((others?.n ?? 0) === 0) {
        throw new AppError(409, 'last_super_admin', 'The last super admin cannot be removed.');
      }
    }
    if (change === 'delete') {
      await tx.delete(users).where(eq(users.id, id));
      return undefined;
    }
    const [updated] = await tx
      .update(users)
      .set({ ...change, updatedAt: new Date() })
      .where(eq(users.id, id))
      .returning();
    return updated;
  });
}
