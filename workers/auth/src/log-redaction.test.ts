import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { Hono } from 'hono';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { apiKeyHash, newApiKey } from '#shared/auth/api-key';
import { onError } from '#shared/errors/on-error';
import { createLogger } from '#shared/log/logger';
import { requestContext } from '#shared/log/request-context';
import app from './index';
import { hashPassword } from './identity/password';

// No log line may carry a password or a password hash (nor a token). The auth worker's own
// logs leave workerd on stdout, out of reach of an integration test, so the logger and the
// error path are checked here, where console is the worker's console.

let lines: string[];
let spies: MockInstance[];

beforeEach(() => {
  lines = [];
  spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) =>
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      lines.push(args.map(String).join(' '));
    }),
  );
});

afterEach(() => spies.forEach((spy) => spy.mockRestore()));

const PASSWORD = 'hunter2-very-secret';
const HASH =
  'pbkdf2-sha256$100000$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhcw';
const TOKEN = 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';

const leaks = (text: string) =>
  [PASSWORD, HASH, 'pbkdf2-sha256$', TOKEN].filter((secret) => text.includes(secret));

describe('the logger', () => {
  it.each([
    'password',
    'Password',
    'old_password',
    'new_password',
    'passwordHash',
    'password_hash',
    'hash',
    'pass',
    'token',
    'access_token',
    'authorization',
    'Authorization',
    'secret',
    'api_key',
    'apiKey',
    'dsn',
    'database_url',
  ])('redacts the value of a field named %s, at every level', (field) => {
    const log = createLogger({ module: 'kbchat.auth.ModuleAuth' }, 'debug');
    const value = field.toLowerCase().includes('hash') ? HASH : PASSWORD;
    log.debug('d', { [field]: value });
    log.info('i', { [field]: value });
    log.warn('w', { [field]: value });
    log.error('e', { [field]: value });
    log.child({ [field]: value }).info('child');
    expect(lines).toHaveLength(5);
    for (const line of lines) {
      expect(leaks(line)).toEqual([]);
      expect((JSON.parse(line) as Record<string, unknown>)[field]).toBe('[redacted]');
    }
  });

  it('keeps other fields and the message as they are', () => {
    createLogger({ module: 'm', request_id: 'r-1' }).info('login refused', {
      username: 'alice',
      status: 401,
    });
    expect(JSON.parse(lines[0]!)).toEqual({
      level: 'info',
      msg: 'login refused',
      module: 'm',
      request_id: 'r-1',
      username: 'alice',
      status: 401,
    });
  });

  // logger.ts promises the secret fields never reach a log line "whatever a caller passes";
  // only top-level keys are checked today.
  it('redacts secret fields inside nested objects and arrays too', () => {
    createLogger({ module: 'm' }).info('request body', {
      body: { username: 'alice', password: PASSWORD },
      users: [{ id: 1, password_hash: HASH }],
    });
    expect(lines).toHaveLength(1);
    expect(leaks(lines[0]!)).toEqual([]);
  });
});

describe('the error path', () => {
  // Drizzle wraps every failed query in DrizzleQueryError, whose message is
  // "Failed query: <sql>\nparams: <every parameter>". onError logs the message; for the
  // queries that write a password hash (create user, sign-up, change/reset password, rehash
  // at login) the parameters are the hash.
  it('a failed query that carried a password hash is logged without the hash', async () => {
    const failing = new Hono();
    failing.use(requestContext(() => ({ module: 'kbchat.auth.ModuleAuth' })));
    failing.onError(onError);
    failing.put('/x', () => {
      throw new DrizzleQueryError(
        'update "users" set "password_hash" = $1, "updated_at" = $2 where "users"."id" = $3',
        [HASH, '2026-01-01T00:00:00.000Z', '2f1d3c8e-8a8f-4c1e-9d0a-5b6c7d8e9f00'],
        new Error('Connection terminated unexpectedly'),
      );
    });
    const res = await failing.request('/x', { method: 'PUT' });
    expect(res.status).toBe(503);
    expect(leaks(await res.text())).toEqual([]);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.flatMap(leaks)).toEqual([]);
  });

  it('a sign-up that fails at the database logs neither the password nor its hash', async () => {
    // The real auth app with sign-up on and a database that refuses connections: the insert
    // of the new user (username + hash) is the query that fails.
    const env = {
      ALLOW_SIGNUP: 'true',
      DATABASE_URL: 'postgres://kb:kb@127.0.0.1:9/kb',
      DATABASE_PROXY: '127.0.0.1:9',
      LOG_LEVEL: 'debug',
    };
    const ctx = createExecutionContext();
    const res = await app.fetch(
      new Request('http://kb.test/moduleauth/signup', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'new-user', password: PASSWORD }),
      }),
      env,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(503);
    expect(leaks(await res.text())).toEqual([]);
    expect(lines.join('\n')).toContain('"status":503');
    expect(lines.flatMap(leaks)).toEqual([]);
    expect(lines.join('\n')).not.toMatch(/pbkdf2/i);
  });

  it('an API key whose lookup fails at the database logs neither the key nor its hash', async () => {
    // The lookup (kbchat_key_session) carries the key's hash as its parameter.
    const key = newApiKey();
    const env = {
      DATABASE_URL: 'postgres://kb:kb@127.0.0.1:9/kb',
      DATABASE_PROXY: '127.0.0.1:9',
      LOG_LEVEL: 'debug',
    };
    const ctx = createExecutionContext();
    const res = await app.fetch(
      new Request('http://kb.test/moduleauth/me', { headers: { Authorization: `Bearer ${key}` } }),
      env,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(503);
    const logged = lines.join('\n');
    expect(logged).toContain('"status":503');
    expect(logged).not.toContain(key.slice(4));
    expect(logged).not.toContain(await apiKeyHash(key));
  });

  it('the hash format the checks look for is the one hashPassword writes', async () => {
    expect(await hashPassword(PASSWORD)).toMatch(/^pbkdf2-sha256\$/);
  });
});
