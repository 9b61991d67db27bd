import { authConfig } from '../config';
import type { AuthCall } from '../call';
import { cookieValues, deviceCookieName, setDeviceCookie } from './device-cookie';
import { signDeviceToken, verifyDeviceToken, type Device } from './device-token';
import { signingKey, verificationKeys } from './keys';

// Beyond a few cookies of the same name, the rest are not looked at.
const MAX_CANDIDATES = 3;

/**
 * The device the call's cookie for `username` names, when its signature and expiry hold.
 * Whether it still counts (this account, this session epoch) is decided by the database, in the
 * login attempt's own statement.
 */
export async function presentedDevice(
  ctx: AuthCall,
  username: string,
): Promise<Device | undefined> {
  const header = ctx.http?.req.header('Cookie');
  if (!header) return undefined;
  const values = cookieValues(header, await deviceCookieName(username));
  if (values.length === 0) return undefined;
  const config = authConfig(ctx.env);
  const keys = await verificationKeys(config.verification.publicKeys);
  for (const value of values.slice(0, MAX_CANDIDATES)) {
    const device = await verifyDeviceToken(value, keys, config.signing);
    if (device) return device;
  }
  return undefined;
}

/**
 * The id of the device the attempt was judged by, if any: the rule kbchat_login_attempt applied
 * in the same batch (the user found is the device's account, at the same session epoch), so
 * that a success gives the attempt back where it was counted.
 */
export function judgingDevice(
  device: Device | undefined,
  user: { id: string; sessionEpoch: number },
): string | undefined {
  return device && device.userId === user.id && device.epoch === user.sessionEpoch
    ? device.id
    : undefined;
}

/** A successful login: the answer sets a new device cookie (RPC callers keep no cookies). */
export async function grantDevice(
  ctx: AuthCall,
  username: string,
  user: { id: string; sessionEpoch: number },
): Promise<void> {
  if (!ctx.http) return;
  const { signing } = authConfig(ctx.env);
  const token = await signDeviceToken(user, await signingKey(signing.privateKey), signing);
  await setDeviceCookie(ctx.http, username, token);
}
