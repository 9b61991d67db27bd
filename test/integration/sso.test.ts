// Single sign-on's routes in workerd when no provider is configured (the integration stack has
// none; test/e2e/sso.test.ts runs the whole flow against a real provider): the login page is
// told passwords only, the provider routes answer 404 sso_off, and the handoff cookie the
// callback leaves can be neither forged nor read twice. And the auth worker's own app, run in
// this isolate on the stack's database with a provider configured, refuses a callback from a
// browser that did not start the sign-in.
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import authWorker from '../../workers/auth/src/index';
import { newBrowserBinding } from '../../workers/auth/src/sso/attempt-cookie';
import { call, stack, uniqueIp } from '../helpers/auth';
import { expectProblem } from '../helpers/hostile';
import { queryRows } from '../helpers/database';

const HANDOFF = '__Secure-kbchat-sso';

const ssoRecordCount = async () =>
  Number(
    (
      await queryRows<{ n: string }>(
        sql`select count(*)::text as n from audit_events where action = 'auth.sso_login'`,
      )
    )[0]!.n,
  );

describe('sign-in options', () => {
  it('offer the password form and no single sign-on when no provider is configured', async () => {
    const res = await call('/moduleauth/sign_in_options');
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: { password: boolean; sso: unknown } };
    expect(data).toMatchObject({ password: true, sso: null });
  });
});

describe('without a provider', () => {
  it('refuses to start, and refuses a callback, with 404 sso_off and nothing written', async () => {
    const before = await ssoRecordCount();
    const start = await call('/moduleauth/sso/start?return_to=%23%2Fkeys');
    expect(start.headers.get('Location')).toBeNull();
    await expectProblem(start, [404], ['sso_off']);
    const callback = await call('/moduleauth/sso/callback?code=x&state=y&iss=https%3A%2F%2Fidp');
    expect(callback.headers.get('Set-Cookie')).toBeNull();
    await expectProblem(callback, [404], ['sso_off']);
    expect(await ssoRecordCount()).toBe(before);
  });
});

describe('collecting a sign-in (PostSsoSession)', () => {
  it('finds nothing waiting without the handoff cookie', async () => {
    await expectProblem(
      await call('/moduleauth/sso/session', { method: 'POST' }),
      [404],
      ['sso_nothing_waiting'],
    );
  });

  it('logs nobody in with a token it did not sign, and clears the cookie', async () => {
    // A well-formed JWT the service never issued (a cookie planted by another site).
    const forged = [
      btoa(JSON.stringify({ alg: 'EdDSA', kid: 'x' })),
      btoa(JSON.stringify({ sub: crypto.randomUUID(), username: 'x', role: 'SUPER_ADMIN' })),
      'c2lnbmF0dXJl',
    ]
      .join('.')
      .replaceAll('=', '');
    const res = await call('/moduleauth/sso/session', {
      method: 'POST',
      headers: { Cookie: `${HANDOFF}=token.${forged}.2099-01-01T00%3A00%3A00.000Z` },
    });
    expect(res.headers.get('Set-Cookie')).toMatch(/^__Secure-kbchat-sso=; Max-Age=0/);
    await expectProblem(res, [404], ['sso_nothing_waiting']);
  });

  it('answers a refusal the callback left as its catalogue error, and only a sign-on one', async () => {
    const refused = await call('/moduleauth/sso/session', {
      method: 'POST',
      headers: { Cookie: `${HANDOFF}=error.sso_invalid`, 'Accept-Language': 'zh-CN' },
    });
    await expectProblem(refused, [401], ['sso_invalid']);
    const other = await call('/moduleauth/sso/session', {
      method: 'POST',
      headers: { Cookie: `${HANDOFF}=error.internal_error` },
    });
    await expectProblem(other, [404], ['sso_nothing_waiting']);
  });
});

describe('a callback from a browser that did not start the sign-in (login CSRF)', () => {
  // A provider nothing answers for (port 9): a refusal comes before any call to it, and an
  // attempt its own browser completes fails there, as sso_unavailable.
  const env = () =>
    ({
      ...stack().workerEnv,
      LOG_LEVEL: 'error',
      TRUST_CF_CONNECTING_IP: 'true',
      OIDC_ISSUER: 'http://127.0.0.1:9',
      OIDC_CLIENT_ID: 'kbchat',
    }) as unknown as AuthEnv;
  const address = uniqueIp();

  async function callback(state: string, cookie?: string) {
    const ctx = createExecutionContext();
    const res = await authWorker.fetch(
      new Request(`http://kb.test/moduleauth/sso/callback?code=c0de&state=${state}`, {
        headers: { 'CF-Connecting-IP': address, ...(cookie ? { Cookie: cookie } : {}) },
      }),
      env(),
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toBe('/#/sso');
    return res.headers.getSetCookie();
  }
  const attemptLeft = async (state: string) =>
    (await queryRows(sql`select 1 from oidc_logins where state = ${state}`)).length === 1;
  const reasons = async () =>
    (
      await queryRows<{ reason: string }>(
        sql`select detail->>'reason' as reason from audit_events
            where action = 'auth.sso_login' and address = ${address} order by id`,
      )
    ).map((row) => row.reason);

  it('is refused like an unknown state, the attempt left in place; its own browser takes it', async () => {
    // An attempt some browser started (as GetSsoStart keeps it).
    const state = `state-${crypto.randomUUID()}`;
    const started = await newBrowserBinding();
    await queryRows(sql`
      insert into oidc_logins (state, nonce, code_verifier, browser_hash, address)
      values (${state}, 'n', 'v', ${started.hash}, ${address}) returning state`);

    // No attempt cookie (a victim's browser): refused, recorded, nothing taken.
    const bare = await callback(state);
    expect(bare).toEqual([expect.stringMatching(/^__Secure-kbchat-sso=error\.sso_expired;/)]);
    expect(await attemptLeft(state)).toBe(true);
    // Another sign-in's cookie: the same; the cookie is cleared.
    const other = await newBrowserBinding();
    const wrong = await callback(state, `__Secure-kbchat-sso-attempt=${other.value}`);
    expect(wrong).toContainEqual(expect.stringMatching(/^__Secure-kbchat-sso=error\.sso_expired;/));
    expect(wrong).toContainEqual(
      expect.stringMatching(/^__Secure-kbchat-sso-attempt=; Max-Age=0;/),
    );
    expect(await attemptLeft(state)).toBe(true);
    expect(await reasons()).toEqual([
      'sso_expired: No attempt cookie: the sign-in was not started in this browser.',
      'sso_expired: Unknown or used state, or one started in another browser.',
    ]);

    // The browser that started it: the attempt is taken (and goes on to the provider).
    const own = await callback(state, `__Secure-kbchat-sso-attempt=${started.value}`);
    expect(own).toContainEqual(
      expect.stringMatching(/^__Secure-kbchat-sso=error\.sso_unavailable;/),
    );
    expect(await attemptLeft(state)).toBe(false);
  });

  it('records nothing for a state no sign-in is under way with: anyone could send many', async () => {
    const before = await reasons();
    const started = await newBrowserBinding();
    for (let i = 0; i < 5; i++) {
      const refused = await callback(
        `state-${crypto.randomUUID()}`,
        i % 2 ? `__Secure-kbchat-sso-attempt=${started.value}` : undefined,
      );
      expect(refused).toContainEqual(
        expect.stringMatching(/^__Secure-kbchat-sso=error\.sso_expired;/),
      );
    }
    // Nor for no state at all.
    await callback('');
    expect(await reasons()).toEqual(before);
  });
});
