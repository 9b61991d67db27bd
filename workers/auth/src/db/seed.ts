// The auth module's database set-up step: the first super admin, from ADMIN_USERNAME and
// ADMIN_PASSWORD. Run by `npm run dev` (with documented local defaults) and by
// `npm run db:migrate` (the deploy step, where both must be set). Created once, never
// overwritten: an existing user of that name is left as it is.
// Imports carry `.ts` because this file also runs in Node (the dev and deploy tooling).
import { sql } from 'drizzle-orm';
import type { NeonDatabase } from 'drizzle-orm/neon-serverless';
import { hashPassword } from '../identity/password.ts';
import { users } from './schema.ts';

export interface AdminCredentials {
  username: string;
  password: string;
}

export async function seedFirstSuperAdmin(
  db: NeonDatabase<Record<string, unknown>>,
  admin: AdminCredentials,
): Promise<'created' | 'exists'> {
  if (admin.username.length < 3 || admin.username.length > 50) {
    throw new Error('ADMIN_USERNAME must be 3 to 50 characters');
  }
  if (admin.password.length < 8 || admin.password.length > 128) {
    throw new Error('ADMIN_PASSWORD must be 8 to 128 characters');
  }
  const existing = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.username}) = lower(${admin.username})`)
    .limit(1);
  if (existing.length > 0) return 'exists';
  const inserted = await db
    .insert(users)
    .values({
      username: admin.username,
      passwordHash: await hashPassword(admin.password),
      isSuperAdmin: true,
    })
    .onConflictDoNothing()
    .returning({ id: users.id });
  return inserted.length > 0 ? 'created' : 'exists';
}
