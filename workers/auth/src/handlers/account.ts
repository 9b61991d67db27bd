import { AppError } from '#shared/errors/app-error';
import { accessDenied } from '#shared/service';
import { roleOf } from '#shared/auth/roles';
import { authConfig } from '../config';
import { auditActor, authDb, clientAddress, type AuthCall } from '../call';
import { principalOf } from '#shared/auth/principal';
import { grantDevice, judgingDevice, presentedDevice } from '../identity/devices';
import { signingKey } from '../identity/keys';
import { loginAttempt, loginSucceeded, refuseIfThrottled } from '../store/login-throttle';
import { hashPassword, verifyPassword } from '../identity/password';
import { issueToken } from '../identity/tokens';
import { userRecorded } from '../store/audit';
import { createUser, endAllSessions, setPassword, userById } from '../store/users';
import { userView } from './views';

/**
 * The current user as the session check finds them: one statement. Other modules call this
 * over RPC to settle a token's session when they have no statement of their own to carry it.
 */
export async function me(_: unknown, ctx: AuthCall) {
  const user = await authDb(ctx).currentUser();
  return {
    id: user.id,
    username: user.username,
    role: roleOf(user.is_super_admin),
    created_at: new Date(user.created_at).toISOString(),
  };
}

export async function signup(
  { body }: { body: { username: string; password: string } },
  ctx: AuthCall,
) {
  if (!authConfig(ctx.env).passwords) throw new AppError('passwords_off');
  if (!authConfig(ctx.env).signup) throw accessDenied('sign-up is off');
  const passwordHash = await hashPassword(body.password);
  const record = {
    action: 'auth.signup' as const,
    actor: { name: body.username, address: clientAddress(ctx) },
  };
  return userView(await createUser(authDb(ctx), { username: body.username, passwordHash }, record));
}

/**
 * Changes the user's own password. A wrong old password counts against the login throttle
 * (a stolen token must not become a password-guessing oracle), judged by the browser's device
 * cookie as a login is. Every session ends, this one included, and with them the standing of
 * every device cookie: the answer is a new token for this session and a new device cookie.
 */
export async function changePassword(
  { body }: { body: { old_password: string; new_password: string } },
  ctx: AuthCall,
) {
  const { id, username } = principalOf(ctx);
  const config = authConfig(ctx.env);
  if (!config.passwords) throw new AppError('passwords_off');
  const address = clientAddress(ctx);
  const adb = authDb(ctx);
  const device = await presentedDevice(ctx, username);
  const [attempt, [user]] = await adb.batch([
    loginAttempt(adb, username, address, config.throttle, device),
    userById(adb, id),
  ]);
  refuseIfThrottled(attempt);
  if (!user || !(await verifyPassword(body.old_password, user.passwordHash))) {
    await adb.run(
      userRecorded(adb, id, {
        action: 'auth.password_change',
        outcome: 'denied',
        actor: auditActor(ctx),
        detail: { reason: 'wrong_password' },
      }),
    );
    throw new AppError('wrong_password');
  }
  const passwordHash = await hashPassword(body.new_password);
  await adb.run(loginSucceeded(adb, username, address, id, judgingDevice(device, user)));
  const updated = await setPassword(adb, id, passwordHash, user.passwordHash, {
    action: 'auth.password_change',
    actor: auditActor(ctx),
  });
  if (!updated) throw new AppError('password_changed');
  const answer = await issueToken(
    updated,
    await signingKey(config.signing.privateKey),
    config.signing,
  );
  await grantDevice(ctx, username, updated);
  return answer;
}

/** Logs the user out everywhere: every token of theirs, this one included, stops working. */
export async function logoutAll(_: unknown, ctx: AuthCall) {
  await endAllSessions(authDb(ctx), principalOf(ctx).id, {
    action: 'auth.logout_all',
    actor: auditActor(ctx),
  });
}
