import { notFound } from '#shared/errors/app-error';
import { auditActor, authDb, type AuthCall } from '../call';
import { hashPassword } from '../identity/password';
import {
  changeUserGuardingLastAdmin,
  createUser,
  endAllSessions,
  listUsers,
  setPassword,
} from '../store/users';
import { managedUserView } from './views';

export async function list({ page, size }: { page: number; size: number }, ctx: AuthCall) {
  const { items, total } = await listUsers(authDb(ctx), page, size);
  return { items: items.map(managedUserView), total, page, size };
}

export async function create(
  { body }: { body: { username: string; password: string; super_admin: boolean } },
  ctx: AuthCall,
) {
  const passwordHash = await hashPassword(body.password);
  return managedUserView(
    await createUser(
      authDb(ctx),
      { username: body.username, passwordHash, isSuperAdmin: body.super_admin },
      {
        action: 'auth.user_create',
        actor: auditActor(ctx),
        detail: { super_admin: body.super_admin },
      },
    ),
  );
}

export async function setRole(
  { body }: { body: { user_id: string; super_admin: boolean } },
  ctx: AuthCall,
) {
  const user = await changeUserGuardingLastAdmin(
    authDb(ctx),
    body.user_id,
    { isSuperAdmin: body.super_admin },
    { action: 'auth.user_role', actor: auditActor(ctx), detail: { super_admin: body.super_admin } },
  );
  return managedUserView(user!);
}

export async function setStatus(
  { body }: { body: { user_id: string; disabled: boolean } },
  ctx: AuthCall,
) {
  const user = await changeUserGuardingLastAdmin(
    authDb(ctx),
    body.user_id,
    { disabled: body.disabled },
    { action: 'auth.user_status', actor: auditActor(ctx), detail: { disabled: body.disabled } },
  );
  return managedUserView(user!);
}

/** Resets a user's password; their sessions end. */
export async function resetPassword(
  { body }: { body: { user_id: string; password: string } },
  ctx: AuthCall,
) {
  const passwordHash = await hashPassword(body.password);
  const record = { action: 'auth.user_password_reset' as const, actor: auditActor(ctx) };
  if (!(await setPassword(authDb(ctx), body.user_id, passwordHash, undefined, record))) {
    throw notFound('user');
  }
}

/** Ends every session of another user (a stolen token, a lost laptop). */
export async function logoutUser({ body }: { body: { user_id: string } }, ctx: AuthCall) {
  await endAllSessions(authDb(ctx), body.user_id, {
    action: 'auth.user_logout_all',
    actor: auditActor(ctx),
  });
}

export async function remove({ user_id }: { user_id: string }, ctx: AuthCall) {
  await changeUserGuardingLastAdmin(authDb(ctx), user_id, 'delete', {
    action: 'auth.user_delete',
    actor: auditActor(ctx),
  });
}
