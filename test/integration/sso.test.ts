// Single sign-on's routes in workerd when no provider is configured (the integration stack has
// none; test/e2e/sso.test.ts runs the whole flow against a real provider): the login page is
// told passwords only, the provider routes answer 404 sso_off, and the handoff cookie the
// callback leaves can be neither forged nor read twice.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call } from '../helpers/auth';
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
