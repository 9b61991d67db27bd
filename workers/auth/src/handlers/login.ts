import { AppError } from '#shared/errors/app-error';
import { unauthorised } from '#shared/service';
import { authConfig } from '../config';
import { authDb, clientAddress, type AuthCall } from '../call';
import { grantDevice, judgingDevice, presentedDevice } from '../identity/devices';
import { dummyPasswordHash, signingKey } from '../identity/keys';
import { recorded, userRecorded } from '../store/audit';
import {
  loginAttempt,
  loginSucceeded,
  refusalRecordable,
  refuseIfThrottled,
} from '../store/login-throttle';
import { hashPassword, needsRehash, verifyPassword } from '../identity/password';
import { issueToken } from '../identity/tokens';
import { rehashedPassword, userByName } from '../store/users';

/**
 * Unknown user, wrong password and disabled user take the same path and the same time, and
 * answer the same 401: nothing tells which usernames exist. Two round trips besides the
 * password hash: [count the attempt, find the user], then [give the attempt back, rehash,
 * record the sign-in]; a refusal is recorded with its reason in the second instead.
 * The browser's device cookie for the username, if valid, is what the attempt is judged by;
 * a success sets a new one.
 */
export async function login(
  { body }: { body: { username: string; password: string } },
  ctx: AuthCall,
) {
  const config = authConfig(ctx.env);
  if (!config.passwords) throw new AppError('passwords_off');
  const address = clientAddress(ctx);
  const adb = authDb(ctx);
  const device = await presentedDevice(ctx, body.username);
  const [attempt, [user]] = await adb.batch([
    loginAttempt(adb, body.username, address, config.throttle, device),
    userByName(adb, body.username),
  ]);
  // Every refusal is recorded (its reason, never the password), up to the throttle's bound of
  // its address or device: the answer stays the same 401.
  const refused = async (reason: string) => {
    await adb.run(
      recorded(adb, {
        action: 'auth.login',
        outcome: 'denied',
        actor: { name: body.username, address },
        object: { type: 'user', id: user?.id ?? null, label: user?.username ?? body.username },
        detail: { reason },
        when: refusalRecordable(address, config.throttle, user && judgingDevice(device, user)),
      }),
    );
  };
  if (Number(attempt.rows[0]?.retry_after ?? 0) > 0) await refused('too_many_attempts');
  refuseIfThrottled(attempt);
  // An account without a password (made by single sign-on, hash '') costs the same work
  // against the dummy hash and never matches.
  const matches =
    (await verifyPassword(body.password, user?.passwordHash || (await dummyPasswordHash()))) &&
    Boolean(user?.passwordHash);
  if (!user || !matches || user.disabled) {
    await refused(!user ? 'unknown_user' : !matches ? 'wrong_password' : 'user_disabled');
    throw unauthorised('login failed');
  }
  const signedIn = userRecorded(adb, user.id, {
    action: 'auth.login',
    actor: { id: user.id, name: user.username, address },
  });
  const succeeded = loginSucceeded(
    adb,
    body.username,
    address,
    user.id,
    judgingDevice(device, user),
  );
  if (needsRehash(user.passwordHash)) {
    // The same password under the current parameters: not a change, the sessions stay.
    const passwordHash = await hashPassword(body.password);
    await adb.batch([succeeded, rehashedPassword(adb, user.id, passwordHash), signedIn]);
  } else {
    await adb.batch([succeeded, signedIn]);
  }
  const answer = await issueToken(
    user,
    await signingKey(config.signing.privateKey),
    config.signing,
  );
  await grantDevice(ctx, body.username, user);
  return answer;
}
