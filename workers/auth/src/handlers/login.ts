import { unauthorised } from '../../../../shared/service';
import { authConfig } from '../config';
import { authDb, type AuthCall } from '../context';
import { dummyPasswordHash, signingKey } from '../keys';
import { hashPassword, needsRehash, verifyPassword } from '../password';
import { clearFailures, refundAttempt, takeAttempt, throttleKeys } from '../throttle';
import { issueToken } from '../tokens';
import { findUserByName, setPasswordHash } from '../users';

/**
 * Unknown user, wrong password and disabled user take the same path and the same time, and
 * answer the same 401: nothing tells which usernames exist.
 */
export async function login(
  { body }: { body: { username: string; password: string } },
  ctx: AuthCall,
) {
  const config = authConfig(ctx.env);
  // On Cloudflare the edge sets CF-Connecting-IP; without it only the username is throttled.
  const keys = throttleKeys(body.username, ctx.http?.req.header('CF-Connecting-IP'));
  return authDb(ctx, async (db) => {
    await takeAttempt(db, keys, config.throttle);
    const user = await findUserByName(db, body.username);
    const matches = await verifyPassword(
      body.password,
      user?.passwordHash ?? (await dummyPasswordHash()),
    );
    if (!user || !matches || user.disabled) throw unauthorised('login failed');
    await clearFailures(db, keys[0]!);
    await refundAttempt(db, keys.slice(1));
    if (needsRehash(user.passwordHash)) {
      await setPasswordHash(db, user.id, await hashPassword(body.password));
    }
    return issueToken(user, await signingKey(config.signing.privateKey), config.signing);
  });
}
