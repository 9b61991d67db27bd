import {
  base64url,
  CompactSign,
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  SignJWT,
  type CryptoKey,
  type JWK,
  type JWTPayload,
} from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { importVerificationKeys, type VerificationKey } from '#shared/auth/keys';
import { verifyToken, type TokenPolicy } from '#shared/auth/verify-token';
import { importSigningKey, issueToken, publicJwks, type SigningKey } from './tokens';

const SETTINGS = { issuer: 'kbchat', audience: 'kbchat', ttlSeconds: 12 * 60 * 60 };
const USER = {
  id: '2f1d3c8e-8a8f-4c1e-9d0a-5b6c7d8e9f00',
  username: 'alice',
  isSuperAdmin: false,
  sessionEpoch: 3,
};

interface KeyPair {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
  privateKey: CryptoKey;
}

async function newKeyPair(kid: string): Promise<KeyPair> {
  const { privateKey, publicKey } = await generateKeyPair('EdDSA', {
    crv: 'Ed25519',
    extractable: true,
  });
  const meta = { kid, alg: 'EdDSA', use: 'sig' };
  return {
    kid,
    privateKey,
    privateJwk: { ...(await exportJWK(privateKey)), ...meta },
    publicJwk: { ...(await exportJWK(publicKey)), ...meta },
  };
}

let pair: KeyPair;
let signer: SigningKey;
let keys: VerificationKey[];
let policy: TokenPolicy;

beforeAll(async () => {
  pair = await newKeyPair('test-key-1');
  signer = await importSigningKey(JSON.stringify(pair.privateJwk));
  keys = await importVerificationKeys(JSON.stringify({ keys: [pair.publicJwk] }));
  policy = {
    issuer: SETTINGS.issuer,
    audience: SETTINGS.audience,
    keys,
    maxLifetimeSeconds: SETTINGS.ttlSeconds,
  };
});

const now = () => Math.floor(Date.now() / 1000);

/** Exactly these claims (nothing added), signed with the test key unless told otherwise. */
function sign(
  claims: JWTPayload,
  options: { key?: CryptoKey; kid?: string; header?: Record<string, unknown> } = {},
) {
  return new SignJWT(claims)
    .setProtectedHeader({
      alg: 'EdDSA',
      typ: 'JWT',
      kid: options.kid ?? pair.kid,
      ...options.header,
    })
    .sign(options.key ?? pair.privateKey);
}

function validClaims(overrides: JWTPayload = {}): JWTPayload {
  const t = now();
  return {
    sub: USER.id,
    username: USER.username,
    role: 'USER',
    epoch: 0,
    iss: 'kbchat',
    aud: 'kbchat',
    iat: t,
    nbf: t,
    exp: t + 600,
    ...overrides,
  };
}

const segment = (value: unknown) =>
  base64url.encode(new TextEncoder().encode(JSON.stringify(value)));

describe('issueToken', () => {
  it('signs an EdDSA JWT with the key id and the claims sub, username, role, epoch, jti, iss, aud, iat, nbf, exp', async () => {
    const at = new Date('2026-01-02T03:04:05.678Z');
    const { token, expire } = await issueToken(USER, signer, SETTINGS, at);
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'EdDSA', kid: 'test-key-1', typ: 'JWT' });
    const iat = Math.floor(at.getTime() / 1000);
    const claims = decodeJwt(token);
    // Each token its own session, which a logout ends alone.
    expect(claims.jti).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(decodeJwt((await issueToken(USER, signer, SETTINGS, at)).token).jti).not.toBe(
      claims.jti,
    );
    expect(claims).toEqual({
      jti: claims.jti,
      sub: USER.id,
      username: 'alice',
      role: 'USER',
      epoch: 3,
      iss: 'kbchat',
      aud: 'kbchat',
      iat,
      nbf: iat,
      exp: iat + 43_200,
    });
    expect(expire).toBe('2026-01-02T15:04:05.000Z');
  });

  it('gives a super admin the role SUPER_ADMIN', async () => {
    const { token } = await issueToken({ ...USER, isSuperAdmin: true }, signer, SETTINGS);
    expect(decodeJwt(token).role).toBe('SUPER_ADMIN');
  });

  it('issues a token that verifyToken accepts, with the user as principal and its session', async () => {
    const { token } = await issueToken(USER, signer, SETTINGS);
    expect(await verifyToken(token, policy)).toEqual({
      ok: true,
      principal: { id: USER.id, username: 'alice', role: 'USER' },
      claim: { userId: USER.id, epoch: 3, role: 'USER', sessionId: decodeJwt(token).jti },
    });
  });

  it('never puts private key material or a password in the token', async () => {
    const { token } = await issueToken(USER, signer, SETTINGS);
    const text = JSON.stringify({ h: decodeProtectedHeader(token), p: decodeJwt(token) });
    expect(text).not.toContain(pair.privateJwk.d!);
    expect(text).not.toMatch(/password|pbkdf2/i);
  });
});

describe('importSigningKey', () => {
  it.each([
    ['a public key', () => pair.publicJwk],
    ['a key without kid', () => ({ ...pair.privateJwk, kid: undefined })],
    ['another curve', () => ({ ...pair.privateJwk, crv: 'X25519' })],
    ['an HMAC secret', () => ({ kty: 'oct', k: 'c2VjcmV0', kid: 'k' })],
  ])('refuses %s', async (_, jwk) => {
    await expect(importSigningKey(JSON.stringify(jwk()))).rejects.toThrow(/Ed25519 JWK/);
  });
});

describe('verification keys and the published JWKS', () => {
  it('refuses a private key, a key without kid, or a non-Ed25519 key as a verification key', async () => {
    for (const jwk of [
      pair.privateJwk,
      { ...pair.publicJwk, kid: undefined },
      { kty: 'oct', k: 'c2VjcmV0', kid: 'k' },
    ]) {
      await expect(importVerificationKeys(JSON.stringify({ keys: [jwk] }))).rejects.toThrow();
    }
    await expect(importVerificationKeys(JSON.stringify({ keys: [] }))).rejects.toThrow();
  });

  it('publishes public members only, even when the configured document holds more', () => {
    const published = publicJwks(
      JSON.stringify({ keys: [{ ...pair.privateJwk, p: 'x', q: 'y', k: 'z' }] }),
    );
    expect(published.keys).toHaveLength(1);
    const [key] = published.keys;
    expect(Object.keys(JSON.parse(JSON.stringify(key)) as object).sort()).toEqual(
      ['alg', 'crv', 'kid', 'kty', 'use', 'x'].sort(),
    );
    expect(key).toMatchObject({
      kty: 'OKP',
      crv: 'Ed25519',
      kid: 'test-key-1',
      x: pair.publicJwk.x,
    });
  });
});

describe('verifyToken', () => {
  it('accepts a token within the 60 s clock tolerance either side', async () => {
    const t = now();
    expect((await verifyToken(await sign(validClaims({ exp: t - 10 })), policy)).ok).toBe(true);
    expect((await verifyToken(await sign(validClaims({ nbf: t + 10 })), policy)).ok).toBe(true);
    const early = validClaims({ iat: t + 50, nbf: t + 50, exp: t + 650 });
    expect((await verifyToken(await sign(early), policy)).ok).toBe(true);
  });

  it('accepts a token signed by any key of the JWKS (rotation)', async () => {
    const next = await newKeyPair('test-key-2');
    const rotated = {
      ...policy,
      keys: await importVerificationKeys(
        JSON.stringify({ keys: [pair.publicJwk, next.publicJwk] }),
      ),
    };
    const token = await sign(validClaims(), { key: next.privateKey, kid: next.kid });
    expect((await verifyToken(token, rotated)).ok).toBe(true);
    expect(await verifyToken(token, policy)).toEqual({ ok: false, reason: 'unknown_key' });
  });

  it('missing: an empty token', async () => {
    expect(await verifyToken('', policy)).toEqual({ ok: false, reason: 'missing' });
  });

  it('expired: exp more than 60 s ago', async () => {
    const { token } = await issueToken(
      USER,
      signer,
      { ...SETTINGS, ttlSeconds: 60 },
      new Date(Date.now() - 3_600_000),
    );
    expect(await verifyToken(token, policy)).toEqual({ ok: false, reason: 'expired' });
    const t = now();
    expect(
      await verifyToken(await sign(validClaims({ exp: t - 61, iat: t - 600 })), policy),
    ).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it('not_yet_valid: nbf more than 60 s ahead', async () => {
    const { token } = await issueToken(USER, signer, SETTINGS, new Date(Date.now() + 3_600_000));
    expect((await verifyToken(token, policy)).ok).toBe(false);
    expect(await verifyToken(await sign(validClaims({ nbf: now() + 120 })), policy)).toEqual({
      ok: false,
      reason: 'not_yet_valid',
    });
  });

  it('bad_signature: another Ed25519 key under the same kid', async () => {
    const impostor = await newKeyPair(pair.kid);
    const token = await sign(validClaims(), { key: impostor.privateKey });
    expect(await verifyToken(token, policy)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('bad_signature: payload tampered (role raised), signature kept', async () => {
    const { token } = await issueToken(USER, signer, SETTINGS);
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(new TextDecoder().decode(base64url.decode(payload!))) as JWTPayload;
    const forged = [header, segment({ ...claims, role: 'SUPER_ADMIN' }), signature].join('.');
    expect(await verifyToken(forged, policy)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('bad_signature: signature bytes changed', async () => {
    const { token } = await issueToken(USER, signer, SETTINGS);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const mid = Math.floor(signature.length / 2);
    const flipped = `${signature.slice(0, mid)}${signature[mid] === 'A' ? 'B' : 'A'}${signature.slice(mid + 1)}`;
    expect(await verifyToken([header, payload, flipped].join('.'), policy)).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
  });

  it('unknown_key: a kid that is not in the JWKS, or none at all', async () => {
    expect(await verifyToken(await sign(validClaims(), { kid: 'nope' }), policy)).toEqual({
      ok: false,
      reason: 'unknown_key',
    });
    const noKid = await new SignJWT(validClaims())
      .setProtectedHeader({ alg: 'EdDSA' })
      .sign(pair.privateKey);
    expect(await verifyToken(noKid, policy)).toEqual({ ok: false, reason: 'unknown_key' });
  });

  it.each([
    ['garbage', () => 'garbage'],
    ['three empty segments', () => '..'],
    ['three junk segments', () => 'a.b.c'],
    [
      'alg none',
      () => `${segment({ alg: 'none', typ: 'JWT', kid: 'test-key-1' })}.${segment(validClaims())}.`,
    ],
    [
      'an unknown algorithm',
      async () => {
        const [, payload, signature] = (await sign(validClaims())).split('.');
        return [segment({ alg: 'XS999', typ: 'JWT', kid: 'test-key-1' }), payload, signature].join(
          '.',
        );
      },
    ],
    [
      'HS256 keyed with the public key bytes',
      async () => {
        const secret = base64url.decode(pair.publicJwk.x!);
        return new SignJWT(validClaims())
          .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: 'test-key-1' })
          .sign(secret);
      },
    ],
    [
      'HS256 keyed with the JWKS text',
      async () => {
        const secret = new TextEncoder().encode(JSON.stringify({ keys: [pair.publicJwk] }));
        return new SignJWT(validClaims())
          .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: 'test-key-1' })
          .sign(secret);
      },
    ],
    [
      'a payload that is not JSON',
      // Properly signed, so that the signature check passes and the payload is what fails.
      () =>
        new CompactSign(new TextEncoder().encode('not json'))
          .setProtectedHeader({ alg: 'EdDSA', kid: 'test-key-1' })
          .sign(pair.privateKey),
    ],
  ])('malformed: %s', async (_, make) => {
    expect(await verifyToken(await make(), policy)).toEqual({ ok: false, reason: 'malformed' });
  });

  it.each([
    ['wrong issuer', { iss: 'someone-else' }],
    ['no issuer', { iss: undefined }],
    ['wrong audience', { aud: 'another-service' }],
    ['no audience', { aud: undefined }],
    ['no exp', { exp: undefined }],
    ['no iat', { iat: undefined }],
    ['no sub', { sub: undefined }],
    ['no username', { username: undefined }],
    ['a username that is not text', { username: 42 }],
    ['an unknown role', { role: 'ROOT' }],
    ['no role', { role: undefined }],
    ['a role in another case', { role: 'super_admin' }],
    ['no session epoch', { epoch: undefined }],
    ['a session epoch that is not an integer', { epoch: '1' }],
    ['a negative session epoch', { epoch: -1 }],
    ['a session id that is not a UUID', { jti: 'session-1' }],
    // Times are taken when the test runs, not when the table is built (a busy machine can
    // spend more than a second in between, which made the last case pass as valid).
    [
      'issued in the future (beyond the clock tolerance)',
      () => ({ iat: now() + 3_600, nbf: now() - 1 }),
    ],
    [
      'valid for years (longer than tokens are issued for)',
      () => ({ exp: now() + 5 * 365 * 86_400 }),
    ],
    ['a lifetime one second longer than the configured one', () => ({ exp: now() + 43_201 })],
  ])('bad_claims: %s', async (_, overrides) => {
    const given = typeof overrides === 'function' ? overrides() : overrides;
    const claims = validClaims(given as JWTPayload);
    for (const key of Object.keys(claims)) {
      if (claims[key] === undefined) delete claims[key];
    }
    expect(await verifyToken(await sign(claims), policy)).toEqual({
      ok: false,
      reason: 'bad_claims',
    });
  });
});
