import { sql } from 'drizzle-orm';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, type JWK } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  ACCESS_DENIED,
  call,
  createUser,
  login,
  median,
  refusal,
  responsesSeen,
  seededAdminToken,
  setDisabled,
  stack,
  timed,
  tokenFor,
  UNAUTHORISED,
  uniqueIp,
  uniqueName,
  uniquePassword,
  type LoginAnswer,
} from '../helpers/auth';
import { queryRows, withDb } from '../helpers/database';

// POST /moduleauth/login, its throttle and its limits, the JWKS, and sign-up (off here).
// Every test that fails logins uses its own usernames and its own client addresses.

const TWELVE_HOURS_MS = 12 * 60 * 60 * 1000;

describe('login', () => {
  it('answers 200 {"data":{"token","expire"}} with an EdDSA token that carries the user', async () => {
    const user = await createUser();
    const before = Date.now();
    const res = await login(user.username, user.password);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await res.json<{ data: LoginAnswer }>();
    expect(Object.keys(body)).toEqual(['data']);
    expect(Object.keys(body.data).sort()).toEqual(['expire', 'token']);
    const { token, expire } = body.data;

    // expire: ISO 8601 (UTC), about 12 hours ahead.
    expect(expire).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    const expiresAt = Date.parse(expire);
    expect(expiresAt - before).toBeGreaterThan(TWELVE_HOURS_MS - 60_000);
    expect(expiresAt - Date.now()).toBeLessThan(TWELVE_HOURS_MS + 60_000);

    const header = decodeProtectedHeader(token);
    expect(header.alg).toBe('EdDSA');
    expect(header.kid).toEqual(expect.any(String));
    expect(header.kid).toBe(JSON.parse(stack().workerEnv.AUTH_PRIVATE_KEY!).kid);

    const claims = decodeJwt(token);
    expect(claims).toMatchObject({
      sub: user.id,
      username: user.username,
      role: 'USER',
      iss: 'kbchat',
      aud: 'kbchat',
    });
    expect(claims.iat).toEqual(expect.any(Number));
    expect(Math.abs(claims.iat! * 1000 - before)).toBeLessThan(60_000);
    expect(claims.exp! - claims.iat!).toBe(12 * 60 * 60);
    expect(claims.exp! * 1000).toBe(expiresAt);
    expect(JSON.stringify(claims)).not.toContain(user.password);
  });

  it('gives the seeded super admin a SUPER_ADMIN token', async () => {
    const { admin } = stack();
    const claims = decodeJwt(await tokenFor(admin.username, admin.password));
    expect(claims.role).toBe('SUPER_ADMIN');
    expect(claims.username).toBe(admin.username);
  });

  it('unknown user, wrong password and disabled user: the same 401 Unauthorised', async () => {
    const user = await createUser();
    const disabled = await createUser();
    expect((await setDisabled(disabled.id, true)).status).toBe(200);

    const answers = [
      await login(uniqueName('nobody'), uniquePassword()),
      await login(user.username, 'wrong-password'),
      await login(disabled.username, disabled.password),
    ];
    const seen = [];
    for (const res of answers) {
      seen.push({ ...(await refusal(res)), challenge: res.headers.get('www-authenticate') });
    }
    for (const one of seen) expect(one).toEqual({ ...UNAUTHORISED, challenge: 'Bearer' });
  });

  it('unknown user, wrong password and disabled user take about the same time', async () => {
    const user = await createUser();
    const disabled = await createUser();
    expect((await setDisabled(disabled.id, true)).status).toBe(200);
    // Warm up: the first unknown-user login of an isolate also makes the dummy hash.
    await login(uniqueName('warmup'), uniquePassword());

    const samples = { unknown: [] as number[], wrong: [] as number[], disabled: [] as number[] };
    // Five of each, interleaved so that load from other test files hits all three alike.
    // Five failures per username is the throttle limit: the fifth still runs in full.
    for (let i = 0; i < 5; i++) {
      const unknown = await timed(() => login(uniqueName('nobody'), uniquePassword()));
      const wrong = await timed(() => login(user.username, `wrong-${i}-password`));
      const off = await timed(() => login(disabled.username, disabled.password));
      for (const { value } of [unknown, wrong, off]) expect(value.status).toBe(401);
      samples.unknown.push(unknown.ms);
      samples.wrong.push(wrong.ms);
      samples.disabled.push(off.ms);
    }
    const medians = Object.values(samples).map(median);
    // Equality, not speed, and a generous bound (seen: medians 37/39/40 ms, ratio 1.08). It
    // catches gross differences (a path that skips the database, hashes twice, or uses another
    // cost). Skipping only the dummy hash would show as ~1.6× here (PBKDF2 is ~15 ms in
    // workerd, the rest of a login ~20 ms), below any bound that stays reliable under the
    // load of parallel test files: workers/auth/src/login.test.ts checks that work directly.
    expect(Math.min(...medians)).toBeGreaterThan(0);
    expect(Math.max(...medians) / Math.min(...medians), JSON.stringify(samples)).toBeLessThan(3);
  });

  it('usernames are case-insensitive at login', async () => {
    const { admin } = stack();
    const res = await login(admin.username.toUpperCase(), admin.password);
    expect(res.status).toBe(200);
    const user = await createUser({ username: uniqueName('MixedCase') });
    expect((await login(user.username.toLowerCase(), user.password)).status).toBe(200);
    expect((await login(user.username.toUpperCase(), user.password)).status).toBe(200);
    // The password is not.
    expect((await login(user.username, user.password.toUpperCase())).status).toBe(401);
  });

  it('stores the password as pbkdf2-sha256 with 100,000 iterations, never in clear', async () => {
    const user = await createUser();
    const [row] = await queryRows<{ password_hash: string }>(
      sql`select password_hash from users where id = ${user.id}`,
    );
    expect(row!.password_hash).toMatch(/^pbkdf2-sha256\$100000\$[\w-]{22}\$[\w-]{43}$/);
    expect(row!.password_hash).not.toContain(user.password);
  });

  it('answers 400 for a missing or empty username or password, 415 for a non-JSON body', async () => {
    for (const json of [{}, { username: 'x' }, { password: 'x' }, { username: '', password: '' }]) {
      const res = await call('/moduleauth/login', { json, ip: uniqueIp() });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(await res.json()).toMatchObject({ code: 'validation_failed' });
    }
    const form = await call('/moduleauth/login', {
      body: 'username=a&password=b',
      contentType: 'application/x-www-form-urlencoded',
      ip: uniqueIp(),
    });
    expect(form.status).toBe(415);
  });
});

describe('request limits', () => {
  it('a 20 KB JSON body is refused with 413 in the problem shape', async () => {
    const res = await call('/moduleauth/login', {
      json: { username: 'someone', password: 'x'.repeat(20 * 1024) },
      ip: uniqueIp(),
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(await res.json()).toMatchObject({ status: 413, code: 'body_too_large' });
  });

  it('a 20 KB body sent without Content-Length (streamed) is refused with 413 too', async () => {
    const chunk = new TextEncoder().encode(
      JSON.stringify({ username: 'someone', password: 'y'.repeat(20 * 1024) }),
    );
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < chunk.length; i += 1024) controller.enqueue(chunk.slice(i, i + 1024));
        controller.close();
      },
    });
    const res = await call('/moduleauth/login', {
      method: 'POST',
      body,
      contentType: 'application/json',
      ip: uniqueIp(),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'body_too_large' });
  });

  it('malformed JSON is a 400 in the problem shape', async () => {
    const res = await call('/moduleauth/login', {
      method: 'POST',
      body: '{"username": "a", "password": ',
      contentType: 'application/json',
      ip: uniqueIp(),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(await res.json()).toMatchObject({ status: 400, code: 'malformed_json' });
  });
});

describe('login throttle', () => {
  // The stack's policy is the default one: a window of 900 s; 5 failures per (username,
  // address); 50 per address; beyond 10 failures of a username, addresses it has not logged in
  // from are slowed down (2, 4, 8 … s).
  async function expectThrottled(res: Response, atMost = 900) {
    expect(res.status).toBe(429);
    const retryAfter = res.headers.get('retry-after');
    expect(retryAfter).toMatch(/^[1-9]\d*$/);
    expect(Number(retryAfter)).toBeLessThanOrEqual(atMost);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(await res.json()).toMatchObject({ status: 429, code: 'too_many_attempts' });
  }

  it('5 failures of a username from one address: the 6th from there is 429, even with the right password', async () => {
    const user = await createUser();
    const ip = uniqueIp();
    for (let i = 0; i < 5; i++) {
      expect((await login(user.username, `wrong-${i}-password`, ip)).status).toBe(401);
    }
    await expectThrottled(await login(user.username, user.password, ip));
    // Another letter case is the same username.
    await expectThrottled(await login(user.username.toUpperCase(), user.password, ip));
    // The owner, from an address that has not failed, is not refused because of those.
    expect((await login(user.username, user.password, uniqueIp())).status).toBe(200);
  });

  it('strangers guessing from many addresses cannot keep the owner out, and are slowed down', async () => {
    const owner = await createUser();
    const home = uniqueIp();
    expect((await login(owner.username, owner.password, home)).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 14; i++) {
      statuses.push((await login(owner.username, `guess-${i}-password`, uniqueIp())).status);
    }
    // Ten guesses are answered; then each new address must wait (2 s, 4 s, … growing).
    expect(statuses.slice(0, 11)).toEqual(Array(11).fill(401));
    expect(statuses.slice(11)).toEqual([429, 429, 429]);
    await expectThrottled(await login(owner.username, owner.password, uniqueIp()));
    // From the address the owner logged in from before, the owner gets in at once.
    expect((await login(owner.username, owner.password, home)).status).toBe(200);
  });

  it('an unknown username is throttled the same way (the 429 tells nothing either)', async () => {
    const ghost = uniqueName('ghost');
    const ip = uniqueIp();
    for (let i = 0; i < 5; i++) {
      expect((await login(ghost, `wrong-${i}-password`, ip)).status).toBe(401);
    }
    await expectThrottled(await login(ghost, 'any-password', ip));
  });

  it('spraying many usernames from one address: after 50 failures that address is refused', async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 50; i++) {
      expect((await login(uniqueName('spray'), `wrong-${i}-password`, ip)).status).toBe(401);
    }
    const next = await createUser();
    await expectThrottled(await login(next.username, next.password, ip));
    // The same user from another address logs in.
    expect((await login(next.username, next.password, uniqueIp())).status).toBe(200);
  });

  it('a successful login starts the pair afresh: 4 failures, success, 4 failures → 401s', async () => {
    const fresh = await createUser();
    const ip = uniqueIp();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await login(fresh.username, `bad-${i}-pw`, ip)).status);
    statuses.push((await login(fresh.username, fresh.password, ip)).status);
    for (let i = 0; i < 4; i++)
      statuses.push((await login(fresh.username, `bad-${i}-pw`, ip)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 200, 401, 401, 401, 401]);
    // …and counting starts again: the fifth failure since the success trips the limit.
    expect((await login(fresh.username, 'bad-4-pw', ip)).status).toBe(401);
    await expectThrottled(await login(fresh.username, fresh.password, ip));
  });

  it('parallel guesses from one address cannot exceed the limit', async () => {
    // Every attempt is counted before its password is checked, in one atomic statement.
    const target = await createUser();
    const ip = uniqueIp();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => login(target.username, `parallel-${i}-guess`, ip)),
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((s) => s === 401).length, statuses.join(',')).toBe(5);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
  });

  it('expired counters are purged as attempts come in: the table does not grow forever', async () => {
    const stale = Array.from({ length: 5 }, () => `address:stale-${crypto.randomUUID()}`);
    await withDb(async (db) => {
      for (const key of stale) {
        await db.execute(sql`insert into login_failures (key, window_start, failures)
          values (${key}, now() - interval '2 hours', 3)`);
      }
    });
    for (let i = 0; i < 3; i++) await login(uniqueName('purge'), 'wrong-password-x');
    const left = await withDb((db) =>
      db.execute<{ n: number }>(
        sql`select count(*)::int as n from login_failures where key in (${sql.join(
          stale.map((key) => sql`${key}`),
          sql`, `,
        )})`,
      ),
    );
    expect(left.rows[0]!.n).toBe(0);
  });
});

describe('JWKS', () => {
  it('publishes the public key(s) only, and the token’s kid is among them', async () => {
    const res = await call('/moduleauth/.well-known/jwks.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const jwks = await res.json<{ keys: JWK[] }>();
    expect(jwks.keys.length).toBeGreaterThan(0);
    for (const key of jwks.keys) {
      expect(key).toMatchObject({ kty: 'OKP', crv: 'Ed25519' });
      expect(key.x).toEqual(expect.any(String));
      for (const secret of ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'])
        expect(key).not.toHaveProperty(secret);
    }
    const privateD = (JSON.parse(stack().workerEnv.AUTH_PRIVATE_KEY!) as JWK).d!;
    expect(JSON.stringify(jwks)).not.toContain(privateD);

    const token = await seededAdminToken();
    const { kid } = decodeProtectedHeader(token);
    expect(jwks.keys.map((k) => k.kid)).toContain(kid);
    // And the published keys verify a real token.
    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks as { keys: JWK[] }), {
      algorithms: ['EdDSA'],
    });
    expect(payload.role).toBe('SUPER_ADMIN');
  });

  it('needs no token', async () => {
    const res = await call('/moduleauth/.well-known/jwks.json', { token: 'garbage' });
    expect(res.status).toBe(200);
  });
});

describe('sign-up (ALLOW_SIGNUP defaults to false)', () => {
  it('is refused with 403 Access denied, and creates nobody', async () => {
    const username = uniqueName('signup');
    const password = uniquePassword();
    const res = await call('/moduleauth/signup', { json: { username, password }, ip: uniqueIp() });
    expect(await refusal(res)).toEqual(ACCESS_DENIED);
    expect((await login(username, password)).status).toBe(401);
  });
});

describe('secrets', () => {
  // Runs last in this file: every answer the tests above received.
  it('no response in this file carried a password hash or a private key', () => {
    const privateD = (JSON.parse(stack().workerEnv.AUTH_PRIVATE_KEY!) as JWK).d!;
    expect(responsesSeen().length).toBeGreaterThan(20);
    for (const { path, status, body } of responsesSeen()) {
      expect(body, `${status} ${path}`).not.toMatch(/pbkdf2|password_hash|passwordHash/i);
      expect(body, `${status} ${path}`).not.toContain(privateD);
      expect(body, `${status} ${path}`).not.toMatch(/pw-[0-9a-f]{8}-[0-9a-f]{4}/);
      expect(body, `${status} ${path}`).not.toContain(stack().admin.password);
    }
  });
});
