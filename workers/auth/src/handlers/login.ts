import { unauthorised } from '#shared/service';
import { authConfig } from '../config';
import { authDb, clientAddress, type AuthCall } from '../call';
import { grantDevice, judgingDevice, presentedDevice } from '../identity/devices';
import { dummyPasswordHash, signingKey } from '../identity/keys';
import { loginAttempt, loginSucceeded, refuseIfThrottled } from '../store/login-throttle';
import { hashPassword, needsRehash, verifyPassword } from '../identity/password';
import { issueToken } from '../identity/tokens';
import { rehashedPassword, userByName } from '../store/users';

/**
 * Unknown user, wrong password and disabled user take the same path and the same time, and
 * answer the same 401: nothing tells which usernames exist. Two round trips besides the
 * password hash: [count the attempt, find the user], then [give the attempt back, rehash].
 * The browser's device cookie for the username, if valid, is what the attempt is judged by;
 * a success sets a new one.
 */
export async function login(
  { body }: { body: { username: string; password: string } },
  ctx: AuthCall,
) {
  const config = authConfig(ctx.env);
  const address = clientAddress(ctx);
  const adb = authDb(ctx);
  const device = await presentedDevice(ctx, body.username);
  const [attempt, [user]] = await adb.batch([
    loginAttempt(adb, body.username, address, config.throttle, device),
    userByName(adb, body.username),
  ]);
  refuseIfThrottled(attempt);
  const matches = await verifyPassword(
    body.password,
    user?.passwordHash ?? (await dummyPasswordHash()),
  );
  if (!user || !matches || user.disabled) throw unauthorised('login failed');
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
    await adb.batch([succeeded, rehashedPassword(adb, user.id, passwordHash)]);
  } else {
    await adb.run(succeeded);
  }
  const answer = await issueToken(
    user,
    await signingKey(config.signing.privateKey),
    config.signing,
  );
  await grantDevice(ctx, body.username, user);
  return answer;
}
