import { AppError } from '../../../../shared/errors/app-error';
import { accessDenied } from '../../../../shared/service';
import type { AuthPrincipal } from '../authorize';
import { authConfig } from '../config';
import { authDb, principalOf, type AuthCall } from '../context';
import { hashPassword, verifyPassword } from '../password';
import { createUser, requireUser, setPasswordHash } from '../users';
import { userView } from '../views';

/**
 * The current user, as the token check just loaded it from the database: other modules call
 * this (over RPC) for every request, so it costs no second lookup.
 */
export async function me(_: unknown, ctx: AuthCall) {
  const user = principalOf(ctx) as Partial<AuthPrincipal> & ReturnType<typeof principalOf>;
  if (user.createdAt) {
    return { id: user.id, username: user.username, role: user.role, created_at: user.createdAt };
  }
  return authDb(ctx, async (db) => userView(await requireUser(db, user.id)));
}

export async function signup(
  { body }: { body: { username: string; password: string } },
  ctx: AuthCall,
) {
  if (!authConfig(ctx.env).signup) throw accessDenied('sign-up is off');
  const passwordHash = await hashPassword(body.password);
  return authDb(ctx, async (db) =>
    userView(await createUser(db, { username: body.username, passwordHash })),
  );
}

export async function changePassword(
  { body }: { body: { old_password: string; new_password: string } },
  ctx: AuthCall,
) {
  const { id } = principalOf(ctx);
  await authDb(ctx, async (db) => {
    const user = await requireUser(db, id);
    if (!(await verifyPassword(body.old_password, user.passwordHash))) {
      throw new AppError(400, 'wrong_password', 'The current password is wrong.');
    }
    await setPasswordHash(db, id, await hashPassword(body.new_password));
  });
}
