import { authDb, type AuthCall } from '../context';
import { hashPassword } from '../password';
import {
  changeUserGuardingLastAdmin,
  createUser,
  listUsers,
  requireUser,
  setPasswordHash,
} from '../users';
import { managedUserView } from '../views';

export function list({ page, size }: { page: number; size: number }, ctx: AuthCall) {
  return authDb(ctx, async (db) => {
    const { items, total } = await listUsers(db, page, size);
    return { items: items.map(managedUserView), total, page, size };
  });
}

export async function create(
  { body }: { body: { username: string; password: string; super_admin: boolean } },
  ctx: AuthCall,
) {
  const passwordHash = await hashPassword(body.password);
  return authDb(ctx, async (db) =>
    managedUserView(
      await createUser(db, {
        username: body.username,
        passwordHash,
        isSuperAdmin: body.super_admin,
      }),
    ),
  );
}

export function setRole(
  { body }: { body: { user_id: string; super_admin: boolean } },
  ctx: AuthCall,
) {
  return authDb(ctx, async (db) => {
    const user = await changeUserGuardingLastAdmin(db, body.user_id, {
      isSuperAdmin: body.super_admin,
    });
    return managedUserView(user!);
  });
}

export function setStatus(
  { body }: { body: { user_id: string; disabled: boolean } },
  ctx: AuthCall,
) {
  return authDb(ctx, async (db) => {
    const user = await changeUserGuardingLastAdmin(db, body.user_id, { disabled: body.disabled });
    return managedUserView(user!);
  });
}

export async function resetPassword(
  { body }: { body: { user_id: string; password: string } },
  ctx: AuthCall,
) {
  const passwordHash = await hashPassword(body.password);
  await authDb(ctx, async (db) => {
    await requireUser(db, body.user_id);
    await setPasswordHash(db, body.user_id, passwordHash);
  });
}

export async function remove({ user_id }: { user_id: string }, ctx: AuthCall) {
  await authDb(ctx, (db) => changeUserGuardingLastAdmin(db, user_id, 'delete'));
}
