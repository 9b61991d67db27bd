import { Hono } from 'hono';
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '../errors/app-error';
import { unauthorised, type AccessRequest, type Credential } from '../service';
import { apiKeyHash, newApiKey } from './api-key';
import { createAuthorize, type KeyUser } from './authorize';
import type { Principal } from './roles';

// How createAuthorize tells an API key from a login token, where it takes a key from (the
// Authorization header and RPC identity, never `t`), and the principal a key stands for.
// Whether the database accepts a key is the integration tests' (api-keys.test.ts).

let publicKeys = '';
let privateKey: CryptoKey;

beforeAll(async () => {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
  const jwk = (await crypto.subtle.exportKey('jwk', pair.publicKey)) as JsonWebKey;
  publicKeys = JSON.stringify({ keys: [{ ...jwk, kid: 'test-1' }] });
  privateKey = pair.privateKey;
});

const ALICE: KeyUser = {
  id: '2f1d3c8e-8a8f-4c1e-9d0a-5b6c7d8e9f00',
  username: 'alice',
  is_super_admin: false,
  session_epoch: 3,
  key_id: '7a0c1e52-3b4d-4f6a-8c9e-0d1f2a3b4c5d',
};

/** A login token of ALICE's, as auth issues them (signed with the configured key). */
function loginToken(role = 'USER'): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ username: ALICE.username, role, epoch: ALICE.session_epoch })
    .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT', kid: 'test-1' })
    .setSubject(ALICE.id)
    .setIssuer('kbchat')
    .setAudience('kbchat')
    .setIssuedAt(now)
    .setExpirationTime(now + 600)
    .sign(privateKey);
}

function setup(found: KeyUser | Error = ALICE, session: Error | undefined = undefined) {
  const resolveKey = vi.fn(async (_access: AccessRequest<unknown>, _hash: string) => {
    if (found instanceof Error) throw found;
    return found;
  });
  const checkSession = vi.fn(async () => {
    if (session) throw session;
  });
  const authorize = createAuthorize<unknown>({
    verification: () => ({
      publicKeys,
      issuer: 'kbchat',
      audience: 'kbchat',
      maxLifetimeSeconds: 3600,
    }),
    checkSession,
    resolveKey,
  });
  return { authorize, resolveKey, checkSession };
}

/** Runs authorize on an HTTP request: the principal, or the AppError it refused with. */
async function overHttp(
  authorize: ReturnType<typeof setup>['authorize'],
  request: Request,
  roles?: string[],
  credential?: Credential,
): Promise<Principal | AppError> {
  let outcome: Principal | AppError | undefined;
  const app = new Hono();
  app.all('*', async (c) => {
    try {
      outcome = await authorize({
        route: 'X',
        roles,
        credential,
        annotations: [],
        env: {},
        caller: { transport: 'http', context: c },
      });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      outcome = err;
    }
    return c.text('');
  });
  await app.request(request);
  return outcome!;
}

const bearer = (token: string, path = '/x', init: RequestInit = {}) =>
  new Request(`http://kb.test${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${token}`, ...init.headers },
  });

describe('an API key in the Authorization header', () => {
  it('is looked up by its SHA-256, and stands for its user with a confirmed session', async () => {
    const { authorize, resolveKey, checkSession } = setup();
    const key = newApiKey();
    const user = (await overHttp(authorize, bearer(key))) as Principal;
    expect(resolveKey).toHaveBeenCalledTimes(1);
    expect(resolveKey.mock.calls[0]![1]).toBe(await apiKeyHash(key));
    expect(user).toMatchObject({ id: ALICE.id, username: 'alice', role: 'USER' });
    expect(user.session?.claim).toEqual({ userId: ALICE.id, epoch: 3, role: 'USER' });
    await user.session!.ensure();
    expect(checkSession).not.toHaveBeenCalled();
  });

  it('carries its user’s role: SUPER_ADMIN routes pass for a super admin, 403 for a USER', async () => {
    const admin = setup({ ...ALICE, is_super_admin: true });
    const user = (await overHttp(admin.authorize, bearer(newApiKey()), [
      'SUPER_ADMIN',
    ])) as Principal;
    expect(user.role).toBe('SUPER_ADMIN');
    expect(user.session?.claim.role).toBe('SUPER_ADMIN');

    const plain = setup();
    const refused = await overHttp(plain.authorize, bearer(newApiKey()), ['SUPER_ADMIN']);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 403, code: 'permission_denied' });
  });

  it('refused by the lookup (revoked, user disabled): 401', async () => {
    const { authorize } = setup(unauthorised('api key refused'));
    const refused = await overHttp(authorize, bearer(newApiKey()));
    expect(refused).toMatchObject({ status: 401, reason: 'api key refused' });
  });

  it('not of the key shape (`kbc_` and garbage): a malformed token, never looked up', async () => {
    const { authorize, resolveKey } = setup();
    for (const token of ['kbc_', 'kbc_garbage', `kbc_${'A'.repeat(44)}`]) {
      expect(await overHttp(authorize, bearer(token)), token).toMatchObject({
        status: 401,
        reason: 'malformed',
      });
    }
    expect(resolveKey).not.toHaveBeenCalled();
  });
});

describe('an API key anywhere but the header', () => {
  it('in ?t= counts as no token', async () => {
    const { authorize, resolveKey } = setup();
    const key = newApiKey();
    const refused = await overHttp(authorize, new Request(`http://kb.test/x?t=${key}`));
    expect(refused).toMatchObject({ status: 401, reason: 'missing token' });
    expect(resolveKey).not.toHaveBeenCalled();
  });

  it('in a form field t counts as no token', async () => {
    const { authorize, resolveKey } = setup();
    const form = new URLSearchParams({ t: newApiKey() });
    const refused = await overHttp(
      authorize,
      new Request('http://kb.test/x', { method: 'POST', body: form }),
    );
    expect(refused).toMatchObject({ status: 401, reason: 'missing token' });
    expect(resolveKey).not.toHaveBeenCalled();
  });

  it('over RPC, as the identity chat passes on, is accepted', async () => {
    const { authorize, resolveKey } = setup();
    const key = newApiKey();
    const user = await authorize({
      route: 'GetQuery',
      roles: undefined,
      credential: undefined,
      annotations: [],
      env: {},
      caller: { transport: 'rpc', identity: { token: key }, fullMethod: '/knowledge/GetQuery' },
    });
    expect(user).toMatchObject({ id: ALICE.id });
    expect(resolveKey.mock.calls[0]![1]).toBe(await apiKeyHash(key));
  });
});

describe('a route that takes one kind of credential (@credential)', () => {
  it('login: an API key is refused with 403 login_required, even a super admin’s', async () => {
    const { authorize } = setup({ ...ALICE, is_super_admin: true });
    const refused = await overHttp(authorize, bearer(newApiKey()), ['SUPER_ADMIN'], 'login');
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 403, code: 'login_required' });
    expect((refused as AppError).message).toMatch(/log in/i);
  });

  it('login: over RPC too, where the key is the identity a worker passes on', async () => {
    const { authorize } = setup({ ...ALICE, is_super_admin: true });
    const refused = await Promise.resolve(
      authorize({
        route: 'CreateUser',
        roles: ['SUPER_ADMIN'],
        credential: 'login',
        annotations: [],
        env: {},
        caller: {
          transport: 'rpc',
          identity: { token: newApiKey() },
          fullMethod: '/auth/CreateUser',
        },
      }),
    ).catch((err: unknown) => err);
    expect(refused).toMatchObject({ status: 403, code: 'login_required' });
  });

  it('login: a login token passes, as the user it names', async () => {
    const { authorize } = setup();
    const user = (await overHttp(
      authorize,
      bearer(await loginToken()),
      undefined,
      'login',
    )) as Principal;
    expect(user).toMatchObject({ id: ALICE.id, role: 'USER', credential: 'login' });
  });

  it('login: a key that does not stand is 401, not 403: a stranger learns nothing of the route', async () => {
    const { authorize } = setup(unauthorised('api key refused'));
    expect(await overHttp(authorize, bearer(newApiKey()), undefined, 'login')).toMatchObject({
      status: 401,
      code: 'unauthenticated',
    });
  });

  it('login: the role is checked first: a USER’s key on a SUPER_ADMIN route is Access denied', async () => {
    const { authorize } = setup();
    expect(await overHttp(authorize, bearer(newApiKey()), ['SUPER_ADMIN'], 'login')).toMatchObject({
      status: 403,
      code: 'permission_denied',
    });
  });

  it('key: a login token is refused with 403 api_key_required, in the header or in ?t=', async () => {
    const { authorize, checkSession } = setup();
    const token = await loginToken();
    for (const request of [bearer(token), new Request(`http://kb.test/x?t=${token}`)]) {
      const refused = await overHttp(authorize, request, undefined, 'key');
      expect(refused).toBeInstanceOf(AppError);
      expect(refused).toMatchObject({ status: 403, code: 'api_key_required' });
    }
    // Its session was settled first: an ended session is 401 before 403.
    expect(checkSession).toHaveBeenCalled();
  });

  it('key: a login token whose session ended is 401', async () => {
    const { authorize } = setup(ALICE, unauthorised('session ended'));
    expect(await overHttp(authorize, bearer(await loginToken()), undefined, 'key')).toMatchObject({
      status: 401,
    });
  });

  it('key: an API key in the header passes', async () => {
    const { authorize } = setup();
    const user = (await overHttp(authorize, bearer(newApiKey()), undefined, 'key')) as Principal;
    expect(user).toMatchObject({ id: ALICE.id, credential: 'key' });
  });
});
