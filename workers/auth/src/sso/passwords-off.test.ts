import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import app from '../index';

// AUTH_LOCAL_PASSWORDS=off cannot be reached from the integration tests (their auth worker has
// the deployed defaults). Here the real auth app runs with single sign-on configured, passwords
// off, and a database that refuses connections: a refusal (403 passwords_off) comes before any
// work; what still passes reaches the database (503). A password change is refused the same
// way (handlers/account.ts), after its token's session check, which needs the database.

const baseEnv = {
  DATABASE_URL: 'postgres://kb:kb@127.0.0.1:9/kb',
  DATABASE_PROXY: '127.0.0.1:9',
  LOG_LEVEL: 'error',
  OIDC_ISSUER: 'https://sso.example.gov.cn/realms/office',
  OIDC_CLIENT_ID: 'kbchat',
  OIDC_LABEL: '统一身份认证',
  ALLOW_SIGNUP: 'true',
};

async function send(env: Record<string, string>, path: string, init: RequestInit = {}) {
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(`http://kb.test${path}`, init), env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

describe('AUTH_LOCAL_PASSWORDS=off', () => {
  const off = { ...baseEnv, AUTH_LOCAL_PASSWORDS: 'off' };

  it('tells the login page: single sign-on only, no sign-up', async () => {
    const res = await send(off, '/moduleauth/sign_in_options');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      data: {
        password: false,
        signup: false,
        sso: { label: '统一身份认证', start_url: '/moduleauth/sso/start' },
      },
    });
  });

  it('refuses a password login and a sign-up with 403 passwords_off, before any work', async () => {
    for (const [path, body] of [
      ['/moduleauth/login', { username: 'admin', password: 'whatever-password' }],
      ['/moduleauth/signup', { username: 'newcomer', password: 'long-enough-password' }],
    ] as const) {
      const res = await send(off, path, json(body));
      expect(res.status, path).toBe(403);
      expect(await res.json(), path).toMatchObject({ code: 'passwords_off' });
    }
  });

  it('is refused as a setting without single sign-on: nobody could sign in', async () => {
    const withoutSso: Record<string, string> = { ...off };
    delete withoutSso.OIDC_ISSUER;
    const res = await send(withoutSso, '/moduleauth/login', json({ username: 'a', password: 'b' }));
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ code: 'configuration_invalid' });
  });

  it('passwords on (the default): a login goes on to the database', async () => {
    const res = await send(
      baseEnv,
      '/moduleauth/login',
      json({ username: 'admin', password: 'x' }),
    );
    expect(res.status).toBe(503);
  });
});
