import { describe, expect, it } from 'vitest';
import {
  ACCESS_DENIED,
  adminsCreatedHere,
  call,
  createUser,
  deleteUser,
  listAllUsers,
  login,
  refusal,
  responsesSeen,
  seededAdminToken,
  setDisabled,
  setRole,
  stack,
  tokenFor,
  UNAUTHORISED,
  uniqueName,
  uniquePassword,
  type ManagedUser,
} from '../helpers/auth';
import { restoreUserRow, userRow } from '../helpers/database';

// User management (super admins only), roles read fresh, the last-admin rule, and changing
// one's own password. This is the only auth test file that creates super admins; it removes
// them again, so that the last-admin test can find the seeded admin alone.

const MANAGED_KEYS = ['created_at', 'disabled', 'id', 'role', 'updated_at', 'username'];

interface Problem {
  status: number;
  code: string;
  errors?: { field: string; message: string }[];
}

async function problem(res: Response): Promise<Problem> {
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  return res.json<Problem>();
}

const putPassword = (token: string, old_password: string, new_password: string) =>
  call('/moduleauth/password', { method: 'PUT', token, json: { old_password, new_password } });

const resetPassword = async (user_id: string, password: string, token?: string) =>
  call('/moduleauth/user_password', {
    method: 'PUT',
    token: token ?? (await seededAdminToken()),
    json: { user_id, password },
  });

describe('roles on a @role(SUPER_ADMIN) route (GET /moduleauth/users)', () => {
  it('no token: 401; USER: 403 Access denied; SUPER_ADMIN: 200', async () => {
    const user = await createUser();
    const userToken = await tokenFor(user.username, user.password);
    expect(await refusal(await call('/moduleauth/users'))).toEqual(UNAUTHORISED);
    expect(await refusal(await call('/moduleauth/users', { token: userToken }))).toEqual(
      ACCESS_DENIED,
    );
    const ok = await call('/moduleauth/users', { token: await seededAdminToken() });
    expect(ok.status).toBe(200);
  });

  it('every user-management route refuses a USER with 403 and no token with 401', async () => {
    const user = await createUser();
    const token = await tokenFor(user.username, user.password);
    const id = user.id;
    const routes: [string, string, unknown][] = [
      ['GET', '/moduleauth/users', undefined],
      ['POST', '/moduleauth/user', { username: uniqueName(), password: uniquePassword() }],
      ['PUT', '/moduleauth/user_role', { user_id: id, super_admin: true }],
      ['PUT', '/moduleauth/user_status', { user_id: id, disabled: true }],
      ['PUT', '/moduleauth/user_password', { user_id: id, password: uniquePassword() }],
      ['DELETE', `/moduleauth/user?user_id=${id}`, undefined],
    ];
    for (const [method, path, json] of routes) {
      expect(await refusal(await call(path, { method, token, json })), path).toEqual(ACCESS_DENIED);
      expect(await refusal(await call(path, { method, json })), path).toEqual(UNAUTHORISED);
    }
    // Nothing happened to the user.
    const me = await call('/moduleauth/me', { token });
    expect(await me.json()).toMatchObject({ data: { id, role: 'USER' } });
  });

  it('a role change ends the user’s sessions: the old token is refused, a new one carries the new role', async () => {
    const user = await createUser();
    const token = await tokenFor(user.username, user.password);
    expect((await call('/moduleauth/users', { token })).status).toBe(403);
    let promotedToken: string;
    try {
      const promoted = await setRole(user.id, true);
      expect(promoted.status).toBe(200);
      expect(await promoted.json()).toMatchObject({ data: { id: user.id, role: 'SUPER_ADMIN' } });
      expect(await refusal(await call('/moduleauth/users', { token }))).toEqual(UNAUTHORISED);
      promotedToken = await tokenFor(user.username, user.password);
      expect((await call('/moduleauth/users', { token: promotedToken })).status).toBe(200);
      expect(await (await call('/moduleauth/me', { token: promotedToken })).json()).toMatchObject({
        data: { role: 'SUPER_ADMIN' },
      });
      // Setting the same role again is no change: the sessions stay.
      expect((await setRole(user.id, true)).status).toBe(200);
      expect((await call('/moduleauth/me', { token: promotedToken })).status).toBe(200);
    } finally {
      const demoted = await setRole(user.id, false);
      expect(demoted.status).toBe(200);
    }
    expect(await refusal(await call('/moduleauth/users', { token: promotedToken }))).toEqual(
      UNAUTHORISED,
    );
    const userAgain = await tokenFor(user.username, user.password);
    expect(await refusal(await call('/moduleauth/users', { token: userAgain }))).toEqual(
      ACCESS_DENIED,
    );
  });
});

describe('listing users', () => {
  it('pages oldest first, with total, page and size; never shows a hash', async () => {
    const made = [await createUser(), await createUser(), await createUser()];
    const token = await seededAdminToken();

    const res = await call('/moduleauth/users?page=1&size=2', { token });
    expect(res.status).toBe(200);
    const { data } = await res.json<{
      data: { items: ManagedUser[]; total: number; page: number; size: number };
    }>();
    expect(data.page).toBe(1);
    expect(data.size).toBe(2);
    expect(data.items).toHaveLength(2);
    expect(data.total).toBeGreaterThanOrEqual(4);
    for (const item of data.items) expect(Object.keys(item).sort()).toEqual(MANAGED_KEYS);

    const defaults = await (
      await call('/moduleauth/users', { token })
    ).json<{
      data: { page: number; size: number };
    }>();
    expect(defaults.data).toMatchObject({ page: 1, size: 20 });

    const beyond = await (
      await call('/moduleauth/users?page=100000&size=100', { token })
    ).json<{
      data: { items: unknown[]; total: number };
    }>();
    expect(beyond.data.items).toEqual([]);
    expect(beyond.data.total).toBeGreaterThanOrEqual(4);

    const all = await listAllUsers();
    const positions = made.map((u) => all.findIndex((item) => item.id === u.id));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    const times = all.map((u) => Date.parse(u.created_at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    const seeded = all.find((u) => u.username === stack().admin.username);
    expect(seeded).toMatchObject({ role: 'SUPER_ADMIN', disabled: false });
  });

  it.each([
    ['page=0', 'page'],
    ['size=0', 'size'],
    ['size=101', 'size'],
    ['page=abc', 'page'],
    ['size=1.5', 'size'],
  ])('refuses %s with 400', async (query, field) => {
    const res = await call(`/moduleauth/users?${query}`, { token: await seededAdminToken() });
    expect(res.status).toBe(400);
    const body = await problem(res);
    expect(body.code).toBe('validation_failed');
    expect(body.errors!.map((e) => e.field)).toEqual([field]);
  });
});

describe('creating users', () => {
  it('creates a USER by default, enabled, and the new user can log in', async () => {
    const username = uniqueName('new');
    const password = uniquePassword();
    const res = await call('/moduleauth/user', {
      token: await seededAdminToken(),
      json: { username, password },
    });
    expect(res.status).toBe(200);
    const { data } = await res.json<{ data: ManagedUser }>();
    expect(Object.keys(data).sort()).toEqual(MANAGED_KEYS);
    expect(data).toMatchObject({ username, role: 'USER', disabled: false });
    expect(data.id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await login(username, password)).status).toBe(200);
  });

  it.each([
    ['username of 2', { username: 'ab' }, ['username']],
    ['username of 51', { username: `u${'x'.repeat(50)}` }, ['username']],
    ['username of spaces only', { username: '     ' }, ['username']],
    ['password of 7', { password: '1234567' }, ['password']],
    ['password of 129', { password: 'p'.repeat(129) }, ['password']],
    ['both', { username: 'ab', password: 'short' }, ['password', 'username']],
    ['neither given', { username: undefined, password: undefined }, ['password', 'username']],
    ['super_admin not a boolean', { super_admin: 'yes' }, ['super_admin']],
  ])('refuses a %s with 400 and field errors', async (_, change, fields) => {
    const json = { username: uniqueName(), password: uniquePassword(), ...change };
    const res = await call('/moduleauth/user', { token: await seededAdminToken(), json });
    expect(res.status).toBe(400);
    const body = await problem(res);
    expect(body.code).toBe('validation_failed');
    expect(body.errors!.map((e) => e.field).sort()).toEqual(fields);
    for (const e of body.errors!) expect(e.message).toEqual(expect.any(String));
    // The refused password is not echoed back.
    if (typeof json.password === 'string' && json.password.length > 3) {
      expect(JSON.stringify(body)).not.toContain(json.password);
    }
  });

  it('accepts the limits exactly: username 3 and 50, password 8 and 128', async () => {
    const short = crypto.randomUUID().slice(0, 3);
    const long = `${crypto.randomUUID()}${'L'.repeat(14)}`;
    expect(long).toHaveLength(50);
    for (const [username, password] of [
      [short, '12345678'],
      [long, 'p'.repeat(128)],
    ] as const) {
      const res = await call('/moduleauth/user', {
        token: await seededAdminToken(),
        json: { username, password },
      });
      expect(res.status, username).toBe(200);
      expect((await login(username, password)).status).toBe(200);
    }
  });

  it('usernames that look like another are refused; full-width forms are the same name', async () => {
    const token = await seededAdminToken();
    const base = uniqueName('look');
    for (const username of [
      `${base}\u200b`, // zero-width space
      `ad\u200bmin-${base.slice(-8)}`,
      `${base}\u202etxt`, // right-to-left override
      `аdmin-${base.slice(-8)}`, // Cyrillic а
    ]) {
      const res = await call('/moduleauth/user', {
        token,
        json: { username, password: uniquePassword() },
      });
      expect(res.status, JSON.stringify(username)).toBe(400);
      expect((await problem(res)).errors!.map((e) => e.field)).toEqual(['username']);
    }
    // Full-width letters fold to the same account, at creation and at login.
    const plain = uniqueName('wide');
    const created = await createUser({ username: plain });
    const wide = [...plain]
      .map((ch) => (/[a-z0-9]/.test(ch) ? String.fromCodePoint(ch.codePointAt(0)! + 0xfee0) : ch))
      .join('');
    const again = await call('/moduleauth/user', {
      token,
      json: { username: wide, password: uniquePassword() },
    });
    expect(again.status).toBe(409);
    expect((await login(wide, created.password)).status).toBe(200);
  });

  it('usernames are unique without regard to case: Alice when alice exists is 409', async () => {
    const lower = uniqueName('alice');
    await createUser({ username: lower });
    const upper = lower.replace('alice', 'Alice');
    const res = await call('/moduleauth/user', {
      token: await seededAdminToken(),
      json: { username: upper, password: uniquePassword() },
    });
    expect(res.status).toBe(409);
    expect(await problem(res)).toMatchObject({ status: 409, code: 'username_taken' });
    const again = await call('/moduleauth/user', {
      token: await seededAdminToken(),
      json: { username: lower.toUpperCase(), password: uniquePassword() },
    });
    expect(again.status).toBe(409);
    // The seeded admin's name, in capitals.
    const admin = await call('/moduleauth/user', {
      token: await seededAdminToken(),
      json: { username: stack().admin.username.toUpperCase(), password: uniquePassword() },
    });
    expect(admin.status).toBe(409);
  });

  it('creates a super admin when asked', async () => {
    const made = await createUser({ superAdmin: true });
    try {
      expect(made.role).toBe('SUPER_ADMIN');
      const token = await tokenFor(made.username, made.password);
      expect((await call('/moduleauth/users', { token })).status).toBe(200);
    } finally {
      expect((await deleteUser(made.id)).status).toBe(204);
    }
  });
});

describe('promoting, disabling, resetting and deleting', () => {
  it('promote and demote answer the changed user', async () => {
    const user = await createUser();
    const up = await setRole(user.id, true);
    expect(up.status).toBe(200);
    const upData = (await up.json<{ data: ManagedUser }>()).data;
    expect(upData).toMatchObject({ id: user.id, role: 'SUPER_ADMIN', disabled: false });
    expect(Object.keys(upData).sort()).toEqual(MANAGED_KEYS);
    const down = await setRole(user.id, false);
    expect(down.status).toBe(200);
    expect(await down.json()).toMatchObject({ data: { id: user.id, role: 'USER' } });
  });

  it('a disabled user cannot log in and their old token is refused; enabled, they log in again (the old token stays ended)', async () => {
    const user = await createUser();
    const token = await tokenFor(user.username, user.password);
    const off = await setDisabled(user.id, true);
    expect(off.status).toBe(200);
    expect(await off.json()).toMatchObject({ data: { id: user.id, disabled: true } });
    expect(await refusal(await login(user.username, user.password))).toEqual(UNAUTHORISED);
    expect(await refusal(await call('/moduleauth/me', { token }))).toEqual(UNAUTHORISED);

    const on = await setDisabled(user.id, false);
    expect(await on.json()).toMatchObject({ data: { disabled: false } });
    expect((await login(user.username, user.password)).status).toBe(200);
    expect(await refusal(await call('/moduleauth/me', { token }))).toEqual(UNAUTHORISED);
  });

  it('reset password: the old one fails, the new one works', async () => {
    const user = await createUser();
    const fresh = uniquePassword();
    const res = await resetPassword(user.id, fresh);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(await refusal(await login(user.username, user.password))).toEqual(UNAUTHORISED);
    expect((await login(user.username, fresh)).status).toBe(200);
    const tooShort = await resetPassword(user.id, 'short');
    expect(tooShort.status).toBe(400);
    expect((await problem(tooShort)).errors!.map((e) => e.field)).toEqual(['password']);
  });

  it('delete: 204, then the login fails, the list no longer has them, a second delete is 404', async () => {
    const user = await createUser();
    expect((await deleteUser(user.id)).status).toBe(204);
    expect(await refusal(await login(user.username, user.password))).toEqual(UNAUTHORISED);
    expect((await listAllUsers()).some((u) => u.id === user.id)).toBe(false);
    const again = await deleteUser(user.id);
    expect(again.status).toBe(404);
    expect(await problem(again)).toMatchObject({ code: 'not_found' });
  });

  it('a user id nobody has is 404 everywhere; one that is not a UUID is 400', async () => {
    const nobody = crypto.randomUUID();
    for (const res of [
      await setRole(nobody, true),
      await setDisabled(nobody, true),
      await resetPassword(nobody, uniquePassword()),
      await deleteUser(nobody),
    ]) {
      expect(res.status).toBe(404);
    }
    for (const res of [
      await setRole('not-a-uuid', true),
      await setDisabled('not-a-uuid', true),
      await resetPassword('not-a-uuid', uniquePassword()),
      await deleteUser('not-a-uuid'),
    ]) {
      expect(res.status).toBe(400);
      expect((await problem(res)).code).toBe('validation_failed');
    }
  });
});

describe('the last active super admin stays', () => {
  it('another super admin may be demoted, disabled or deleted while one stays active', async () => {
    const a = await createUser({ superAdmin: true });
    const b = await createUser({ superAdmin: true });
    const c = await createUser({ superAdmin: true });
    expect((await setRole(a.id, false)).status).toBe(200);
    expect((await setDisabled(b.id, true)).status).toBe(200);
    expect((await deleteUser(c.id)).status).toBe(204);
    // An admin may step down themselves while another stays.
    const d = await createUser({ superAdmin: true });
    const dToken = await tokenFor(d.username, d.password);
    expect((await setRole(d.id, false, dToken)).status).toBe(200);
    // Stepping down ended d's sessions; as a USER again, d is refused the admin routes.
    expect(await refusal(await call('/moduleauth/users', { token: dToken }))).toEqual(UNAUTHORISED);
    const dAgain = await tokenFor(d.username, d.password);
    expect((await call('/moduleauth/users', { token: dAgain })).status).toBe(403);
    for (const id of [a.id, b.id, d.id]) expect((await deleteUser(id)).status).toBe(204);
  });

  // The seeded admin is always an active super admin, and other test files may run at the
  // same time, so the state "one active super admin" is made and checked, not assumed: this
  // file's own admins are demoted first, the list must then show the seeded admin alone, and
  // every attempt on it must be refused. Should one succeed anyway, the row is put back at
  // once, directly in the database, so no other test loses its admin.
  it('demoting, disabling or deleting the last active super admin is 409 last_super_admin', async (ctx) => {
    const token = await seededAdminToken();
    const me = (await (await call('/moduleauth/me', { token })).json<{ data: ManagedUser }>()).data;
    for (const id of adminsCreatedHere()) await setRole(id, false);

    let others: ManagedUser[] = [];
    for (let attempt = 0; attempt < 20; attempt++) {
      others = (await listAllUsers()).filter(
        (u) => u.role === 'SUPER_ADMIN' && !u.disabled && u.id !== me.id,
      );
      if (others.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    if (others.length > 0) {
      ctx.skip(
        `other active super admins exist (${others.map((u) => u.username).join(', ')}): ` +
          'the last-admin state cannot be made without touching them',
      );
    }

    // A disabled super admin does not count as one that stays.
    const dormant = await createUser({ superAdmin: true });
    expect((await setDisabled(dormant.id, true)).status).toBe(200);

    // An API key of the last admin's: disabling revokes keys in the same transaction, so a
    // refused disable must leave it working.
    const keyAnswer = await call('/moduleauth/api_key', { token, json: { name: 'last admin' } });
    expect(keyAnswer.status).toBe(200);
    const key = (await keyAnswer.json<{ data: { id: string; key: string } }>()).data;

    const saved = (await userRow(me.id))!;
    const attempts: [string, () => Promise<Response>][] = [
      ['demote', () => setRole(me.id, false)],
      ['disable', () => setDisabled(me.id, true)],
      ['delete', () => deleteUser(me.id)],
    ];
    const outcomes: { action: string; status: number; code: unknown }[] = [];
    for (const [action, attemptIt] of attempts) {
      const res = await attemptIt();
      if (res.status !== 409) await restoreUserRow(saved);
      const body = res.headers.get('content-type')?.includes('json')
        ? await res.json<{ code?: string }>()
        : { code: await res.text() };
      outcomes.push({ action, status: res.status, code: body.code });
    }
    const raced = (await listAllUsers()).filter(
      (u) => u.role === 'SUPER_ADMIN' && !u.disabled && u.id !== me.id,
    );
    if (outcomes.some((o) => o.status !== 409) && raced.length > 0) {
      ctx.skip(`another super admin appeared meanwhile (${raced.map((u) => u.username)})`);
    }
    expect(outcomes).toEqual(
      ['demote', 'disable', 'delete'].map((action) => ({
        action,
        status: 409,
        code: 'last_super_admin',
      })),
    );

    expect((await call('/moduleauth/me', { token: key.key })).status).toBe(200);
    expect(
      (await call(`/moduleauth/api_key?id=${key.id}`, { method: 'DELETE', token })).status,
    ).toBe(204);

    // Changes that keep them an active super admin still pass.
    expect((await setRole(me.id, true)).status).toBe(200);
    expect((await setDisabled(me.id, false)).status).toBe(200);
    // And the dormant admin (not active) may be demoted and deleted.
    expect((await setRole(dormant.id, false)).status).toBe(200);
    expect((await deleteUser(dormant.id)).status).toBe(204);

    const after = (await userRow(me.id))!;
    expect(after).toMatchObject({ is_super_admin: true, disabled: false });
    expect((await call('/moduleauth/users', { token })).status).toBe(200);
  });
});

describe('changing one’s own password', () => {
  it('a wrong old password is 400 wrong_password; then the new one works and the old fails', async () => {
    const user = await createUser();
    const token = await tokenFor(user.username, user.password);
    const fresh = uniquePassword();

    const wrong = await putPassword(token, 'not-the-password', fresh);
    expect(wrong.status).toBe(400);
    expect(await problem(wrong)).toMatchObject({ status: 400, code: 'wrong_password' });
    expect((await login(user.username, fresh)).status).toBe(401);

    const short = await putPassword(token, user.password, 'short');
    expect(short.status).toBe(400);
    expect((await problem(short)).errors!.map((e) => e.field)).toEqual(['new_password']);

    const ok = await putPassword(token, user.password, fresh);
    expect(ok.status).toBe(200);
    const { data } = await ok.json<{ data: { token: string; expire: string } }>();
    expect(data).toEqual({ token: expect.any(String), expire: expect.any(String) });
    expect(await refusal(await login(user.username, user.password))).toEqual(UNAUTHORISED);
    expect((await login(user.username, fresh)).status).toBe(200);
  });

  it('needs a token', async () => {
    const res = await call('/moduleauth/password', {
      method: 'PUT',
      json: { old_password: 'whatever', new_password: 'long-enough-pw' },
    });
    expect(await refusal(res)).toEqual(UNAUTHORISED);
  });
});

describe('what the user endpoints show', () => {
  it('GET /moduleauth/me answers id, username, role, created_at and nothing else', async () => {
    const user = await createUser();
    const res = await call('/moduleauth/me', {
      token: await tokenFor(user.username, user.password),
    });
    const text = await res.text();
    const { data } = JSON.parse(text) as { data: Record<string, unknown> };
    expect(Object.keys(data).sort()).toEqual(['created_at', 'id', 'role', 'username']);
    expect(data).toMatchObject({ id: user.id, username: user.username, role: 'USER' });
    expect(text).not.toMatch(/password|pbkdf2|hash/i);
  });

  // Runs last in this file: every answer the tests above received.
  it('no response in this file carried a password or a password hash', () => {
    expect(responsesSeen().length).toBeGreaterThan(50);
    for (const { path, status, body } of responsesSeen()) {
      expect(body, `${status} ${path}`).not.toMatch(/pbkdf2|password_hash|passwordHash/i);
      expect(body, `${status} ${path}`).not.toMatch(/pw-[0-9a-f]{8}-[0-9a-f]{4}/);
      expect(body, `${status} ${path}`).not.toContain(stack().admin.password);
    }
  });
});
