import { principalOf } from '#shared/auth/principal';
import { notFound } from '#shared/errors/app-error';
import { authConfig } from '../config';
import { auditActor, authDb, type AuthCall } from '../call';
import { signingKey } from '../identity/keys';
import { issueToken } from '../identity/tokens';
import { userRecorded } from '../store/audit';
import { endingSessions } from '../store/users';

/**
 * Signs the user out of every other session: their session epoch moves on (every token issued
 * before, this one included, stops working), recorded in the same batch, and this session
 * carries on with a new token for the new epoch.
 */
export async function logoutOthers(_: unknown, ctx: AuthCall) {
  const principal = principalOf(ctx);
  const adb = authDb(ctx);
  const [[user]] = await adb.batch([
    endingSessions(adb, principal.id),
    userRecorded(adb, principal.id, { action: 'auth.logout_others', actor: auditActor(ctx) }),
  ]);
  if (!user) throw notFound('user');
  const config = authConfig(ctx.env);
  return issueToken(user, await signingKey(config.signing.privateKey), config.signing);
}

/**
 * Records that the user signed out. A token cannot be withdrawn (the browser forgets it); the
 * session check in the same round trip makes sure only a live session is recorded.
 */
export async function logout(_: unknown, ctx: AuthCall) {
  const principal = principalOf(ctx);
  const adb = authDb(ctx);
  await adb.run(userRecorded(adb, principal.id, { action: 'auth.logout', actor: auditActor(ctx) }));
}
