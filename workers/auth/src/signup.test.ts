import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import app from './index';

// Sign-up ON cannot be reached from the integration tests: the auth worker there has the
// deployed default ALLOW_SIGNUP=false and no per-test configuration. Here the real auth app
// runs with sign-up on and a database that refuses connections: a request that passes the
// gate goes on to the database (503), one that does not is refused (403) before any work.

const baseEnv = {
  DATABASE_URL: 'postgres://kb:kb@127.0.0.1:9/kb',
  DATABASE_PROXY: '127.0.0.1:9',
  LOG_LEVEL: 'error',
};

async function signup(env: Record<string, string>, body: unknown) {
  const ctx = createExecutionContext();
  const res = await app.fetch(
    new Request('http://kb.test/moduleauth/signup', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    }),
    env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}

const valid = { username: 'newcomer', password: 'long-enough-password' };

describe('sign-up switch', () => {
  it.each([['false'], [''], ['0']])(
    'ALLOW_SIGNUP=%j: 403 Access denied, as plain text',
    async (value) => {
      const res = await signup({ ...baseEnv, ALLOW_SIGNUP: value }, valid);
      expect(res.status).toBe(403);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=UTF-8');
      expect(await res.text()).toBe('Access denied');
    },
  );

  it('absent ALLOW_SIGNUP means off', async () => {
    const res = await signup(baseEnv, valid);
    expect(res.status).toBe(403);
  });

  it.each([['true'], ['1']])(
    'ALLOW_SIGNUP=%j: the request passes the gate and reaches the database',
    async (value) => {
      const res = await signup({ ...baseEnv, ALLOW_SIGNUP: value }, valid);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ code: 'database_unavailable' });
    },
  );

  it('sign-up on still validates: username 3–50, password 8–128', async () => {
    const env = { ...baseEnv, ALLOW_SIGNUP: 'true' };
    const res = await signup(env, { username: 'ab', password: 'short' });
    expect(res.status).toBe(400);
    const problem = await res.json<{ code: string; errors: { field: string }[] }>();
    expect(problem.code).toBe('validation_failed');
    expect(problem.errors.map((e) => e.field).sort()).toEqual(['password', 'username']);
  });

  it('an invalid ALLOW_SIGNUP is a configuration error, not an open door', async () => {
    const res = await signup({ ...baseEnv, ALLOW_SIGNUP: 'yes' }, valid);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ code: 'configuration_invalid' });
  });
});
