import { Hono } from 'hono';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { AuthError, unauthorised, type AccessRequest } from '../service';
import { apiKeyHash, newApiKey } from './api-key';
import { createAuthorize, type KeyUser } from './authorize';
import type { Principal } from './roles';

// How createAuthorize tells an API key from a login token, where it takes a key from (the
// Authorization header and RPC identity, never `t`), and the principal a key stands for.
// Whether the database accepts a key is the integration tests' (api-keys.test.ts).

let publicKeys = '';

beforeAll(async () => {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
  const jwk = (await crypto.subtle.exportKey('jwk', pair.publicKey)) as JsonWebKey;
  publicKeys = JSON.stringify({ keys: [{ ...jwk, kid: 'test-1' }] });
});

const ALICE: KeyUser = {
  id: '2f1d3c8e-8a8f-4c1e-9d0a-5b6c7d8e9f00',
  username: 'alice',
  is_super_admin: false,
  session_epoch: 3,
};

function setup(found: KeyUser | Error = ALICE) {
  const resolveKey = vi.fn(async (_access: AccessRequest<unknown>, _hash: string) => {
    if (found instanceof Error) throw found;
    return found;
  });
  const checkSession = vi.fn(async () => undefined);
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

/** Runs authorize on an HTTP request: the principal, or the AuthError it refused with. */
async function overHttp(
  authorize: ReturnType<typeof setup>['authorize'],
  request: Request,
  roles?: string[],
): Promise<Principal | AuthError> {
  let outcome: Principal | AuthError | undefined;
  const app = new Hono();
  app.all('*', async (c) => {
    try {
      outcome = await authorize({
        route: 'X',
        roles,
        annotations: [],
        env: {},
        caller: { transport: 'http', context: c },
      });
    } catch (err) {
      if (!(err instanceof AuthError)) throw err;
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
    expect(refused).toBeInstanceOf(AuthError);
    expect((refused as AuthError).status).toBe(403);
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
      annotations: [],
      env: {},
      caller: { transport: 'rpc', identity: { token: key }, fullMethod: '/knowledge/GetQuery' },
    });
    expect(user).toMatchObject({ id: ALICE.id });
    expect(resolveKey.mock.calls[0]![1]).toBe(await apiKeyHash(key));
  });
});
