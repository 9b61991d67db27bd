import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import {
  ACCESS_DENIED,
  call,
  createUser,
  login,
  refusal,
  seededAdminToken,
  tokenFor,
  UNAUTHORISED,
  uniqueIp,
  uniquePassword,
  type TestUser,
} from '../helpers/auth';

// Sessions end at once everywhere when a user changes or resets their password, logs out
// everywhere, or is logged out by a super admin: every token issued before is refused by all
// three modules, in the header and in `?t=`. Wrong old passwords count as failed logins.

const BASE = 'http://kb.test';

/** Every way a token is used, on every module: each must answer 401 for an ended session. */
async function uses(token: string): Promise<Record<string, number>> {
  const chat = await call('/modulechat/chat', { token, json: { prompt: 'anything at all' } });
  await chat.arrayBuffer();
  const viaQuery = await exports.default.fetch(
    new Request(`${BASE}/moduleknowledge/list?t=${encodeURIComponent(token)}`),
  );
  return {
    me: (await call('/moduleauth/me', { token })).status,
    list: (await call('/moduleknowledge/list', { token })).status,
    query: (await call('/moduleknowledge/query?text=refund', { token })).status,
    chat: chat.status,
    'list?t=': viaQuery.status,
  };
}

const ALL_200 = { me: 200, list: 200, query: 200, chat: 200, 'list?t=': 200 };
const ALL_401 = { me: 401, list: 401, query: 401, chat: 401, 'list?t=': 401 };

async function twoSessions(user: TestUser) {
  const thief = await tokenFor(user.username, user.password);
  const own = await tokenFor(user.username, user.password);
  expect(await uses(thief)).toEqual(ALL_200);
  return { thief, own };
}

describe('ending sessions', () => {
  it('changing one’s password ends every session, and answers a new token for this one', async () => {
    const user = await createUser();
    const { thief, own } = await twoSessions(user);
    const fresh = uniquePassword();
    const res = await call('/moduleauth/password', {
      method: 'PUT',
      token: own,
      json: { old_password: user.password, new_password: fresh },
    });
    expect(res.status).toBe(200);
    const { data } = await res.json<{ data: { token: string } }>();
    expect(await uses(thief)).toEqual(ALL_401);
    expect(await uses(own)).toEqual(ALL_401);
    expect(await uses(data.token)).toEqual(ALL_200);
  });

  it('a super admin’s password reset ends the user’s sessions', async () => {
    const user = await createUser();
    const { thief } = await twoSessions(user);
    const reset = await call('/moduleauth/user_password', {
      method: 'PUT',
      token: await seededAdminToken(),
      json: { user_id: user.id, password: uniquePassword() },
    });
    expect(reset.status).toBe(204);
    expect(await uses(thief)).toEqual(ALL_401);
  });

  it('log out everywhere: POST /moduleauth/logout_all ends every session of the user, this one included', async () => {
    const user = await createUser();
    const { thief, own } = await twoSessions(user);
    const res = await call('/moduleauth/logout_all', { method: 'POST', token: own });
    expect(res.status).toBe(204);
    expect(await uses(thief)).toEqual(ALL_401);
    expect(await uses(own)).toEqual(ALL_401);
    // Logging in again starts a new session.
    expect(await uses(await tokenFor(user.username, user.password))).toEqual(ALL_200);
  });

  it('a super admin ends another user’s sessions: POST /moduleauth/user_logout_all', async () => {
    const user = await createUser();
    const { thief } = await twoSessions(user);
    const bystander = await createUser();
    const bystanderToken = await tokenFor(bystander.username, bystander.password);
    const res = await call('/moduleauth/user_logout_all', {
      token: await seededAdminToken(),
      json: { user_id: user.id },
    });
    expect(res.status).toBe(204);
    expect(await uses(thief)).toEqual(ALL_401);
    expect((await call('/moduleauth/me', { token: bystanderToken })).status).toBe(200);
    // A USER may not end someone else's sessions.
    const refused = await call('/moduleauth/user_logout_all', {
      token: bystanderToken,
      json: { user_id: user.id },
    });
    expect(await refusal(refused)).toEqual(ACCESS_DENIED);
    const unknown = await call('/moduleauth/user_logout_all', {
      token: await seededAdminToken(),
      json: { user_id: crypto.randomUUID() },
    });
    expect(unknown.status).toBe(404);
  });
});

describe('the old password is guarded like a login', () => {
  it('wrong old passwords count against the login throttle: 5 wrong, then even the right one is 429', async () => {
    const user = await createUser();
    const stolen = await tokenFor(user.username, user.password);
    const ip = uniqueIp();
    const change = (old_password: string) =>
      call('/moduleauth/password', {
        method: 'PUT',
        token: stolen,
        ip,
        json: { old_password, new_password: uniquePassword() },
      });
    for (let i = 0; i < 5; i++) expect((await change(`guess-${i}-password`)).status).toBe(400);
    const blocked = await change(user.password);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    // The password did not change, and the owner still logs in from their own address.
    expect((await login(user.username, user.password)).status).toBe(200);
  });

  it('an ended session cannot change the password', async () => {
    const user = await createUser();
    const token = await tokenFor(user.username, user.password);
    expect((await call('/moduleauth/logout_all', { method: 'POST', token })).status).toBe(204);
    const res = await call('/moduleauth/password', {
      method: 'PUT',
      token,
      json: { old_password: user.password, new_password: uniquePassword() },
    });
    expect(await refusal(res)).toEqual(UNAUTHORISED);
    expect((await login(user.username, user.password)).status).toBe(200);
  });
});

describe('what is answered to a user is never cached by others', () => {
  it('list, me, query, download and chat answers carry Cache-Control: no-store', async () => {
    const token = await seededAdminToken();
    const list = await call('/moduleknowledge/list', { token });
    const files = (await list.json<{ data: { id: string }[] }>()).data;
    const answers = [
      list,
      await call('/moduleauth/me', { token }),
      await call('/moduleknowledge/query?text=refund', { token }),
      await call('/modulechat/chat', { token, json: { prompt: 'anything' } }),
      ...(files[0] ? [await call(`/moduleknowledge/download?id=${files[0].id}`, { token })] : []),
    ];
    for (const res of answers) {
      expect(res.headers.get('cache-control'), res.url).toBe('no-store');
      if (!res.bodyUsed) await res.arrayBuffer();
    }
    // Public documents stay cacheable.
    const jwks = await call('/moduleauth/.well-known/jwks.json');
    expect(jwks.headers.get('cache-control')).not.toBe('no-store');
  });
});
