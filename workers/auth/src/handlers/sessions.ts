import { principalOf } from '#shared/auth/principal';
import { notFound } from '#shared/errors/app-error';
import { authConfig } from '../config';
import { auditActor, authDb, type AuthCall } from '../call';
import { signingKey } from '../identity/keys';
import { issueToken } from '../identity/tokens';
import { userRecorded } from '../store/audit';
import { endingSession, endingSessions } from '../store/users';

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
 * Signs out of this session: the token's session (its jti) is listed as ended, so the session
 * check every later request makes refuses it, recorded in the same batch; the user's other
 * sessions carry on. The batch's own session check makes sure only a live session is ended and
 * recorded. A token issued before tokens carried a session id cannot be ended alone: its sign-out
 * is recorded, and it lasts until it expires.
 */
export async function logout(_: unknown, ctx: AuthCall) {
  const principal = principalOf(ctx);
  const sessionId = principal.session?.claim.sessionId;
  const adb = authDb(ctx);
  const record = userRecorded(adb, principal.id, { action: 'auth.logout', actor: auditActor(ctx) });
  if (!sessionId) {
    await adb.run(record);
    return;
  }
  const { ttlSeconds } = authConfig(ctx.env).signing;
  await adb.batch([endingSession(adb, sessionId, ttlSeconds), record]);
}
