import {
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  SignJWT,
  type CryptoKey,
  type JWTPayload,
} from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { importVerificationKeys, type VerificationKey } from '#shared/auth/keys';
import { verifyToken } from '#shared/auth/verify-token';
import { DEVICE_LIFETIME_SECONDS, signDeviceToken, verifyDeviceToken } from './device-token';
import { issueToken, type SigningKey } from './tokens';

const SETTINGS = { issuer: 'kbchat', audience: 'kbchat' };
const USER = {
  id: '2f1d3c8e-8a8f-4c1e-9d0a-5b6c7d8e9f00',
  username: 'alice',
  isSuperAdmin: false,
  sessionEpoch: 3,
};
const DAY_MS = 24 * 60 * 60 * 1000;

let signer: SigningKey;
let keys: VerificationKey[];
let otherSigner: SigningKey;

async function newSigner(kid: string) {
  const { privateKey, publicKey } = await generateKeyPair('EdDSA', {
    crv: 'Ed25519',
    extractable: true,
  });
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'EdDSA' };
  return { signer: { kid, key: privateKey }, publicJwk };
}

beforeAll(async () => {
  const real = await newSigner('k1');
  signer = real.signer;
  keys = await importVerificationKeys(JSON.stringify({ keys: [real.publicJwk] }));
  otherSigner = (await newSigner('k1')).signer;
});

/** The token's own header and claims, changed by `change`, signed again with `key`. */
async function resign(
  token: string,
  change: (header: Record<string, unknown>, claims: JWTPayload) => void,
  key: CryptoKey = signer.key,
) {
  const header = decodeProtectedHeader(token) as Record<string, unknown>;
  const claims = decodeJwt(token);
  change(header, claims);
  return new SignJWT(claims).setProtectedHeader({ ...header, alg: 'EdDSA' }).sign(key);
}

describe('device tokens', () => {
  it('name a new random device of the user, at the user’s session epoch, for 30 days', async () => {
    const now = new Date();
    const first = await signDeviceToken(USER, signer, SETTINGS, now);
    const second = await signDeviceToken(USER, signer, SETTINGS, now);
    const device = await verifyDeviceToken(first, keys, SETTINGS);
    expect(device).toEqual({ id: expect.any(String), userId: USER.id, epoch: 3 });
    expect((await verifyDeviceToken(second, keys, SETTINGS))!.id).not.toBe(device!.id);
    const claims = decodeJwt(first);
    expect(claims.exp! - claims.iat!).toBe(DEVICE_LIFETIME_SECONDS);
    expect(DEVICE_LIFETIME_SECONDS).toBe(30 * 24 * 60 * 60);
    // Nothing a bearer token's holder could use: no username, no role.
    expect(Object.keys(claims).sort()).toEqual(['aud', 'epoch', 'exp', 'iat', 'iss', 'jti', 'sub']);
  });

  it('hold until they expire, and not after', async () => {
    const issued = new Date(Date.now() - 29 * DAY_MS);
    const token = await signDeviceToken(USER, signer, SETTINGS, issued);
    expect(await verifyDeviceToken(token, keys, SETTINGS)).toBeDefined();
    expect(await verifyDeviceToken(token, keys, SETTINGS, new Date(Date.now() + 2 * DAY_MS))).toBe(
      undefined,
    );
  });

  it('are refused when tampered with, signed by another key or under an unknown kid', async () => {
    const token = await signDeviceToken(USER, signer, SETTINGS);
    const [head, body, signature] = token.split('.');
    const flipped = `${signature!.slice(0, 10)}${signature![10] === 'A' ? 'B' : 'A'}${signature!.slice(11)}`;
    expect(await verifyDeviceToken(`${head}.${body}.${flipped}`, keys, SETTINGS)).toBeUndefined();
    const foreign = await resign(token, () => {}, otherSigner.key);
    expect(await verifyDeviceToken(foreign, keys, SETTINGS)).toBeUndefined();
    const unknownKid = await resign(token, (header) => (header.kid = 'k2'));
    expect(await verifyDeviceToken(unknownKid, keys, SETTINGS)).toBeUndefined();
    // The control: the same token signed again, unchanged, holds.
    expect(await verifyDeviceToken(await resign(token, () => {}), keys, SETTINGS)).toBeDefined();
  });

  it('are refused with another type, issuer or audience, or claims out of shape', async () => {
    const token = await signDeviceToken(USER, signer, SETTINGS);
    const changes: Record<string, (header: Record<string, unknown>, claims: JWTPayload) => void> = {
      'type JWT': (header) => (header.typ = 'JWT'),
      'another issuer': (_, claims) => (claims.iss = 'someone-else'),
      'the tokens’ audience': (_, claims) => (claims.aud = SETTINGS.audience),
      'a sub that is no user id': (_, claims) => (claims.sub = 'admin'),
      'a jti that is no device id': (_, claims) => (claims.jti = 'x'),
      'no epoch': (_, claims) => delete (claims as { epoch?: number }).epoch,
      'a negative epoch': (_, claims) => Object.assign(claims, { epoch: -1 }),
      'issued in the future': (_, claims) => {
        claims.iat = claims.iat! + 3600;
        claims.exp = claims.exp! + 3600;
      },
      'a lifetime longer than 30 days': (_, claims) => {
        claims.iat = claims.iat! - 40 * 24 * 3600;
      },
    };
    for (const [what, change] of Object.entries(changes)) {
      expect(await verifyDeviceToken(await resign(token, change), keys, SETTINGS), what).toBe(
        undefined,
      );
    }
    expect(await verifyDeviceToken('x'.repeat(2000), keys, SETTINGS)).toBeUndefined();
    expect(await verifyDeviceToken('not-a-token', keys, SETTINGS)).toBeUndefined();
  });

  it('are no bearer token, and a bearer token is no device token', async () => {
    const device = await signDeviceToken(USER, signer, SETTINGS);
    const policy = { ...SETTINGS, keys, maxLifetimeSeconds: 12 * 60 * 60 };
    expect(await verifyToken(device, policy)).toMatchObject({ ok: false });
    const settings = { ...SETTINGS, ttlSeconds: 12 * 60 * 60 };
    const { token } = await issueToken(USER, signer, settings);
    expect(await verifyToken(token, policy)).toMatchObject({ ok: true });
    expect(await verifyDeviceToken(token, keys, SETTINGS)).toBeUndefined();
  });
});
