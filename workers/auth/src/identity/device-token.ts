import { jwtVerify, SignJWT } from 'jose';
import { TOKEN_ALGORITHM, type VerificationKey } from '#shared/auth/keys';
import type { SigningKey } from './tokens';

/**
 * A device token is what a device cookie holds (OWASP, "Slow Down Online Guessing Attacks with
 * Device Cookies"): proof that this browser logged in as this user before. It is signed by
 * auth's token key, so it needs no secret of its own, but it can never pass for a bearer token:
 * its `typ` and audience differ, and it carries no role or username (shared/auth/verify-token
 * refuses it on all three); nor can a bearer token pass for one (wrong `typ` and audience).
 */

/** What a valid device token says; the database decides whether it still counts. */
export interface Device {
  /** Random: the device's own failure counter is kept under it (`device:<id>`). */
  id: string;
  userId: string;
  /** The user's session epoch when it was issued: ending the sessions revokes it. */
  epoch: number;
}

export interface DeviceTokenSettings {
  issuer: string;
  /** The bearer tokens' audience; device tokens use one derived from it, never equal. */
  audience: string;
}

/** How long a device stays known without a login. Every login issues a new one. */
export const DEVICE_LIFETIME_SECONDS = 30 * 24 * 60 * 60;

const DEVICE_TYPE = 'kbchat-device+jwt';
// A stored cookie never needs more; anything longer is not ours and is not parsed.
const MAX_TOKEN_LENGTH = 1024;
const CLOCK_TOLERANCE_SECONDS = 60;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const deviceAudience = (settings: DeviceTokenSettings) => `${settings.audience}#login-device`;

/** A new device (a fresh random id) for `user`, signed. */
export function signDeviceToken(
  user: { id: string; sessionEpoch: number },
  signer: SigningKey,
  settings: DeviceTokenSettings,
  now = new Date(),
): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  return new SignJWT({ epoch: user.sessionEpoch })
    .setProtectedHeader({ alg: TOKEN_ALGORITHM, kid: signer.kid, typ: DEVICE_TYPE })
    .setJti(crypto.randomUUID())
    .setSubject(user.id)
    .setIssuer(settings.issuer)
    .setAudience(deviceAudience(settings))
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + DEVICE_LIFETIME_SECONDS)
    .sign(signer.key);
}

/** The device a token names, or undefined for anything not a valid, unexpired device token. */
export async function verifyDeviceToken(
  token: string,
  keys: VerificationKey[],
  settings: DeviceTokenSettings,
  now = new Date(),
): Promise<Device | undefined> {
  if (token.length > MAX_TOKEN_LENGTH) return undefined;
  try {
    const { payload } = await jwtVerify(
      token,
      (header) => {
        const match = keys.find((k) => k.kid === header.kid);
        if (!match) throw new Error('unknown key');
        return match.key;
      },
      {
        algorithms: [TOKEN_ALGORITHM],
        typ: DEVICE_TYPE,
        issuer: settings.issuer,
        audience: deviceAudience(settings),
        requiredClaims: ['sub', 'jti', 'iat', 'exp'],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        // Issued no earlier than one lifetime ago, whatever `exp` claims.
        maxTokenAge: DEVICE_LIFETIME_SECONDS,
        currentDate: now,
      },
    );
    const { sub, jti, epoch } = payload as { sub: string; jti: string; epoch?: unknown };
    if (!UUID.test(sub) || !UUID.test(jti)) return undefined;
    if (!Number.isSafeInteger(epoch) || (epoch as number) < 0) return undefined;
    return { id: jti, userId: sub, epoch: epoch as number };
  } catch {
    return undefined;
  }
}
