import { base64url, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { chatService } from '#shared/contracts/chat';
import { knowledgeService } from '#shared/contracts/knowledge';
import {
  call,
  claimsFor,
  createUser,
  decodeSegment,
  deleteUser,
  flipChar,
  nowSeconds,
  refusal,
  segment,
  setDisabled,
  signToken,
  stackKeys,
  tokenFor,
  UNAUTHORISED,
  type TestUser,
} from '../helpers/auth';

// Every worker checks tokens the same way (shared/auth): each attack below must be refused
// with the spec's plain-text 401 `Unauthorised`. GET /moduleauth/me needs a token and no role.

/** A protected route of another worker, when one is declared (knowledge and chat). */
const otherWorkerRoute = [...knowledgeService.routes, ...chatService.routes].find(
  (route) => !route.roles?.includes('guest'),
);

function requestOn(
  route: { httpMethod: string; fullPath: string },
  token: string | undefined,
  headers: Record<string, string> = {},
) {
  // No body: the token check runs before any body is read.
  return call(route.fullPath.replace(/:(\w+)/g, '1'), { method: route.httpMethod, token, headers });
}

let user: TestUser;
let userClaims: JWTPayload;
let realToken: string;

beforeAll(async () => {
  user = await createUser();
  userClaims = await claimsFor(user);
  realToken = await tokenFor(user.username, user.password);
});

/** Each attack makes a token (or an Authorization header value, when `header` is set). */
type Attack = () => Promise<{ token?: string; header?: string }>;

const withClaims =
  (change: (claims: JWTPayload) => JWTPayload, options?: Parameters<typeof signToken>[1]) =>
  async () => ({ token: await signToken(change({ ...userClaims }), options) });

const without = (name: string) => (claims: JWTPayload) => {
  const copy = { ...claims };
  delete copy[name];
  return copy;
};

const ATTACKS: [string, Attack][] = [
  [
    'alg: none, no signature',
    async () => {
      const { kid } = await stackKeys();
      return { token: `${segment({ alg: 'none', typ: 'JWT', kid })}.${segment(userClaims)}.` };
    },
  ],
  [
    'alg: none, signature of the real token kept',
    async () => {
      const [, , signature] = realToken.split('.');
      const { kid } = await stackKeys();
      return {
        token: `${segment({ alg: 'none', typ: 'JWT', kid })}.${segment(userClaims)}.${signature}`,
      };
    },
  ],
  [
    'HS256 signed with the public key bytes as the secret',
    async () => {
      const { kid, publicJwk } = await stackKeys();
      const token = await new SignJWT(userClaims)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid })
        .sign(base64url.decode(publicJwk.x!));
      return { token };
    },
  ],
  [
    'HS256 signed with the public JWK text as the secret',
    async () => {
      const { kid, publicJwk } = await stackKeys();
      const token = await new SignJWT(userClaims)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid })
        .sign(new TextEncoder().encode(JSON.stringify(publicJwk)));
      return { token };
    },
  ],
  [
    'an unknown algorithm in the header',
    async () => {
      const [, payload, signature] = realToken.split('.');
      const { kid } = await stackKeys();
      return { token: [segment({ alg: 'XS999', typ: 'JWT', kid }), payload, signature].join('.') };
    },
  ],
  [
    'ES256 in the header over an EdDSA signature',
    async () => {
      const [, payload, signature] = realToken.split('.');
      const { kid } = await stackKeys();
      return { token: [segment({ alg: 'ES256', typ: 'JWT', kid }), payload, signature].join('.') };
    },
  ],
  [
    'payload tampered (role → SUPER_ADMIN), signature kept',
    async () => {
      const [header, payload, signature] = realToken.split('.');
      const claims = decodeSegment<JWTPayload>(payload!);
      return { token: [header, segment({ ...claims, role: 'SUPER_ADMIN' }), signature].join('.') };
    },
  ],
  [
    'payload tampered (exp + 1 year), signature kept',
    async () => {
      const [header, payload, signature] = realToken.split('.');
      const claims = decodeSegment<JWTPayload>(payload!);
      const exp = claims.exp! + 365 * 86_400;
      return { token: [header, segment({ ...claims, exp }), signature].join('.') };
    },
  ],
  [
    'signature tampered',
    async () => {
      const [header, payload, signature] = realToken.split('.');
      return { token: [header, payload, flipChar(signature!)].join('.') };
    },
  ],
  [
    'signature removed',
    async () => {
      const [header, payload] = realToken.split('.');
      return { token: `${header}.${payload}.` };
    },
  ],
  [
    'signed by a different Ed25519 key with the same kid',
    async () => {
      const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
      return { token: await signToken(userClaims, { key: privateKey }) };
    },
  ],
  ['signed by the real key under a wrong kid', withClaims((c) => c, { kid: 'not-a-known-kid' })],
  ['signed by the real key without a kid', withClaims((c) => c, { header: { kid: undefined } })],
  [
    'expired (exp 2 minutes ago, beyond the 30 s tolerance)',
    withClaims((c) => ({ ...c, iat: nowSeconds() - 3600, exp: nowSeconds() - 120 })),
  ],
  ['not yet valid (nbf 5 minutes ahead)', withClaims((c) => ({ ...c, nbf: nowSeconds() + 300 }))],
  ['missing exp', withClaims(without('exp'))],
  ['missing iat', withClaims(without('iat'))],
  ['missing sub', withClaims(without('sub'))],
  ['wrong issuer', withClaims((c) => ({ ...c, iss: 'evil-issuer' }))],
  ['wrong audience', withClaims((c) => ({ ...c, aud: 'another-service' }))],
  ['an unknown role', withClaims((c) => ({ ...c, role: 'ROOT' }))],
  ['a user id nobody has', withClaims((c) => ({ ...c, sub: crypto.randomUUID() }))],
  ['a user id that is not a UUID', withClaims((c) => ({ ...c, sub: 'not-a-uuid' }))],
  ['garbage', async () => ({ token: 'garbage' })],
  ['three junk segments', async () => ({ token: 'a.b.c' })],
  ['the JWT with a fourth segment', async () => ({ token: `${realToken}.AAAA` })],
  ['empty bearer', async () => ({ header: 'Bearer ' })],
  ['the word Bearer alone', async () => ({ header: 'Bearer' })],
  ['another scheme with a valid token', async () => ({ header: `Basic ${realToken}` })],
  ['a token without the scheme', async () => ({ header: realToken })],
];

async function attackOn(
  attack: Attack,
  send: (token: string | undefined, headers: Record<string, string>) => Promise<Response>,
) {
  const { token, header } = await attack();
  return send(token, header === undefined ? {} : { Authorization: header });
}

describe('forged and broken tokens', () => {
  it('control: a token forged with the real key and the user’s own claims is accepted', async () => {
    // The attacks below change one thing each from this token; it must pass for them to mean
    // anything.
    const res = await call('/moduleauth/me', { token: await signToken(userClaims) });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ data: { id: user.id, username: user.username } });
    expect((await call('/moduleauth/me', { token: realToken })).status).toBe(200);
  });

  it('control: a minute of clock difference is tolerated either side', async () => {
    const now = nowSeconds();
    for (const claims of [
      { ...userClaims, exp: now - 50 },
      { ...userClaims, nbf: now + 50 },
      { ...userClaims, iat: now + 50, nbf: now + 50, exp: now + 3650 },
    ]) {
      expect((await call('/moduleauth/me', { token: await signToken(claims) })).status).toBe(200);
    }
  });

  it.each(ATTACKS)('%s: 401 Unauthorised on GET /moduleauth/me', async (_, attack) => {
    const res = await attackOn(attack, (token, headers) =>
      call('/moduleauth/me', { token, headers }),
    );
    expect(await refusal(res)).toEqual(UNAUTHORISED);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });

  it.each(ATTACKS)(
    '%s: 401 (not 403, not 200) on the super-admin route GET /moduleauth/users',
    async (_, attack) => {
      const res = await attackOn(attack, (token, headers) =>
        call('/moduleauth/users', { token, headers }),
      );
      expect(await refusal(res)).toEqual(UNAUTHORISED);
    },
  );

  // knowledge and chat check tokens with the public keys, then ask auth (RPC GetMe): the
  // first route of theirs that needs a token gets the same attacks (skipped while none is
  // declared).
  it.skipIf(!otherWorkerRoute).each(ATTACKS)(
    `%s: 401 on another worker's protected route (${otherWorkerRoute?.fullPath ?? 'none declared yet'})`,
    async (_, attack) => {
      const res = await attackOn(attack, (token, headers) =>
        requestOn(otherWorkerRoute!, token, headers),
      );
      expect(await refusal(res)).toEqual(UNAUTHORISED);
    },
  );

  it.skipIf(!otherWorkerRoute)('control: another worker accepts a real token', async () => {
    const res = await requestOn(otherWorkerRoute!, realToken);
    expect(res.status).not.toBe(401);
    expect(res.status).not.toBe(403);
  });

  it('a validly signed token claiming SUPER_ADMIN for a USER is refused: the role is checked against the user', async () => {
    // Only a token forged with the real key can claim another role than the user's (every
    // role change ends the user's sessions); the session check compares the two.
    const forged = await signToken({ ...userClaims, role: 'SUPER_ADMIN' });
    expect(await refusal(await call('/moduleauth/users', { token: forged }))).toEqual(UNAUTHORISED);
    expect(await refusal(await call('/moduleauth/me', { token: forged }))).toEqual(UNAUTHORISED);
    if (otherWorkerRoute) {
      expect(await refusal(await requestOn(otherWorkerRoute, forged))).toEqual(UNAUTHORISED);
    }
  });

  it('a token issued in the future or valid for years is refused', async () => {
    const now = nowSeconds();
    for (const claims of [
      { ...userClaims, iat: now + 3600, nbf: now - 10, exp: now + 7200 },
      { ...userClaims, exp: now + 10 * 365 * 86_400 },
    ]) {
      const token = await signToken(claims);
      expect(await refusal(await call('/moduleauth/me', { token }))).toEqual(UNAUTHORISED);
      if (otherWorkerRoute) {
        expect(await refusal(await requestOn(otherWorkerRoute, token))).toEqual(UNAUTHORISED);
      }
    }
  });
});

describe('tokens of users that changed', () => {
  it('a disabled user’s token is refused at once, and stays refused once enabled (its session ended)', async () => {
    const victim = await createUser();
    const token = await tokenFor(victim.username, victim.password);
    expect((await call('/moduleauth/me', { token })).status).toBe(200);
    expect((await setDisabled(victim.id, true)).status).toBe(200);
    expect(await refusal(await call('/moduleauth/me', { token }))).toEqual(UNAUTHORISED);
    if (otherWorkerRoute) {
      expect(await refusal(await requestOn(otherWorkerRoute, token))).toEqual(UNAUTHORISED);
    }
    expect((await setDisabled(victim.id, false)).status).toBe(200);
    expect(await refusal(await call('/moduleauth/me', { token }))).toEqual(UNAUTHORISED);
    const fresh = await tokenFor(victim.username, victim.password);
    expect((await call('/moduleauth/me', { token: fresh })).status).toBe(200);
  });

  it('a deleted user’s token is refused', async () => {
    const victim = await createUser();
    const token = await tokenFor(victim.username, victim.password);
    expect((await deleteUser(victim.id)).status).toBe(204);
    expect(await refusal(await call('/moduleauth/me', { token }))).toEqual(UNAUTHORISED);
    if (otherWorkerRoute) {
      expect(await refusal(await requestOn(otherWorkerRoute, token))).toEqual(UNAUTHORISED);
    }
  });

  it('a deleted user’s token does not carry over to a new user of the same name', async () => {
    const victim = await createUser();
    const token = await tokenFor(victim.username, victim.password);
    expect((await deleteUser(victim.id)).status).toBe(204);
    await createUser({ username: victim.username });
    expect(await refusal(await call('/moduleauth/me', { token }))).toEqual(UNAUTHORISED);
  });
});

describe('where the token may come from', () => {
  it('GET /moduleauth/me?t=<token> works without a header', async () => {
    const res = await call(`/moduleauth/me?t=${encodeURIComponent(realToken)}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ data: { id: user.id } });
  });

  it('?t= with a bad token is 401', async () => {
    const res = await call('/moduleauth/me?t=garbage');
    expect(await refusal(res)).toEqual(UNAUTHORISED);
  });

  it('the Authorization header wins over ?t=', async () => {
    const res = await call(`/moduleauth/me?t=${encodeURIComponent(realToken)}`, {
      token: 'garbage',
    });
    expect(await refusal(res)).toEqual(UNAUTHORISED);
  });

  it('the scheme is case-insensitive', async () => {
    const res = await call('/moduleauth/me', { headers: { Authorization: `bearer ${realToken}` } });
    expect(res.status).toBe(200);
  });

  // auth declares no form route: every POST/PUT takes a JSON body. A form body `t` still
  // passes the token check — the route then refuses the form (415), which proves the check
  // read `t` (a missing token would be a 401).
  it('a form body `t` is read by the token check (auth has no form route: 415 after it)', async () => {
    const form = (t: string) =>
      call('/moduleauth/password', {
        method: 'PUT',
        body: new URLSearchParams({ t, old_password: 'x', new_password: 'long-enough-pw' }),
      });
    const good = await form(realToken);
    expect(good.status).toBe(415);
    expect(await good.json()).toMatchObject({ code: 'unsupported_media_type' });
    expect(await refusal(await form('garbage'))).toEqual(UNAUTHORISED);
  });
});
