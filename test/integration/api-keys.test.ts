// API keys (shared/auth/api-key.ts, workers/auth/src/handlers/api-keys.ts): created, listed and
// revoked through auth; a key acts as its user on all three modules, in the Authorization
// header only, until it is revoked or the user is disabled or deleted; the database keeps only
// its SHA-256.
import { env, exports } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textPdf } from '../../dev/fixtures/hostile-pdfs';
import { readSse } from '#shared/service';
import {
  ACCESS_DENIED,
  BASE,
  UNAUTHORISED,
  call,
  createUser,
  deleteUser,
  listAllUsers,
  login,
  refusal,
  seededAdminToken,
  setDisabled,
  tokenFor,
  uniqueName,
  uniquePassword,
  type TestUser,
} from '../helpers/auth';
import { queryRows } from '../helpers/database';
import { deleteFile, expectProblem, sha256Hex, uploadOk, type Uploaded } from '../helpers/hostile';

interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
}
interface NewKey extends ApiKey {
  key: string;
}
interface AnyonesKey extends ApiKey {
  user_id: string;
  username: string;
}

const KEY_SHAPE = /^kbc_[A-Za-z0-9_-]{43}$/;

let admin = '';
let alice: TestUser;
let aliceToken = '';
let file: Uploaded;
const WORD = `Quillmarsh${crypto.randomUUID().slice(0, 8)}`;
const cleanupUsers: string[] = [];

beforeAll(async () => {
  admin = await seededAdminToken();
  alice = await createUser();
  cleanupUsers.push(alice.id);
  aliceToken = await tokenFor(alice.username, alice.password);
  file = await uploadOk(
    aliceToken,
    textPdf(`The ${WORD} ferry leaves the harbour at seven every morning.`),
    'ferry.pdf',
  );
});

afterAll(async () => {
  await deleteFile(admin, file.id);
  for (const id of cleanupUsers) await deleteUser(id);
});

async function createKey(token: string, name = 'a script'): Promise<NewKey> {
  const res = await call('/moduleauth/api_key', { token, json: { name } });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json<{ data: NewKey }>()).data;
}

async function ownKeys(token: string): Promise<ApiKey[]> {
  const res = await call('/moduleauth/api_keys', { token });
  expect(res.status).toBe(200);
  return (await res.json<{ data: { items: ApiKey[] } }>()).data.items;
}

function revoke(token: string, id: string) {
  return call(`/moduleauth/api_key?id=${encodeURIComponent(id)}`, { method: 'DELETE', token });
}

/** A new user with a key of their own. */
async function userWithKey(superAdmin = false) {
  const user = await createUser({ superAdmin });
  cleanupUsers.push(user.id);
  const token = await tokenFor(user.username, user.password);
  return { user, token, key: await createKey(token) };
}

async function keyRows(userId: string) {
  return queryRows<{ id: string; name: string; prefix: string; hash: string; row: string }>(
    sql`select id::text as id, name, prefix, hash, row_to_json(k)::text as row
        from api_keys k where user_id = ${userId}::uuid`,
  );
}

/** A chat through the key: the SSE events it streams (status 200), or the refusal. */
async function chatWith(key: string) {
  const res = await call('/modulechat/chat', {
    token: key,
    json: { prompt: `When does the ${WORD} ferry leave?`, file_id: file.id },
  });
  if (res.status !== 200) return { status: res.status, events: [] };
  const events: { event: string; data: unknown }[] = [];
  for await (const { event, data } of readSse(res.body!)) {
    events.push({ event, data: JSON.parse(data) });
  }
  return { status: res.status, events };
}

/** The status each module answers the key with. */
async function uses(key: string): Promise<Record<string, number>> {
  return {
    me: (await call('/moduleauth/me', { token: key })).status,
    list: (await call('/moduleknowledge/list', { token: key })).status,
    query: (await call(`/moduleknowledge/query?text=${WORD}`, { token: key })).status,
    chat: (await chatWith(key)).status,
  };
}
const ALL_200 = { me: 200, list: 200, query: 200, chat: 200 };
const ALL_401 = { me: 401, list: 401, query: 401, chat: 401 };

describe('creating and listing keys', () => {
  it('shows the key once; lists show its prefix, never the key or its hash', async () => {
    const created = await createKey(aliceToken, 'nightly export');
    expect(created.key).toMatch(KEY_SHAPE);
    expect(created).toMatchObject({
      name: 'nightly export',
      prefix: created.key.slice(0, 12),
      last_used_at: null,
    });
    expect(Date.parse(created.created_at)).not.toBeNaN();

    const res = await call('/moduleauth/api_keys', { token: aliceToken });
    const text = await res.text();
    const hash = await sha256Hex(new TextEncoder().encode(created.key));
    expect(text).not.toContain(created.key);
    expect(text).not.toContain(created.key.slice(12));
    expect(text).not.toContain(hash);
    const listed = (JSON.parse(text) as { data: { items: ApiKey[] } }).data.items;
    expect(listed).toContainEqual({
      id: created.id,
      name: created.name,
      prefix: created.prefix,
      created_at: created.created_at,
      last_used_at: null,
      expires_at: null,
    });
    expect(Object.keys(listed[0]!).sort()).toEqual(
      ['created_at', 'expires_at', 'id', 'last_used_at', 'name', 'prefix'].sort(),
    );
  });

  it('a key with a last moment works until then and is refused after it', async () => {
    const { token } = await userWithKey();
    const until = new Date(Date.now() + 3_600_000).toISOString();
    const res = await call('/moduleauth/api_key', {
      token,
      json: { name: 'for a week', expires_at: until },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const key = (await res.json<{ data: NewKey & { expires_at: string } }>()).data;
    expect(Date.parse(key.expires_at)).toBe(Date.parse(until));
    expect((await ownKeys(token)).find((k) => k.id === key.id)).toMatchObject({
      expires_at: key.expires_at,
    });
    expect((await call('/moduleauth/me', { token: key.key })).status).toBe(200);

    // Its moment passes (moved in the database rather than waited for).
    await queryRows(
      sql`update api_keys set expires_at = now() - interval '1 second' where id = ${key.id}::uuid`,
    );
    expect(await refusal(await call('/moduleauth/me', { token: key.key }))).toEqual(UNAUTHORISED);
    expect(await refusal(await call('/moduleknowledge/list', { token: key.key }))).toEqual(
      UNAUTHORISED,
    );
  });

  it('a last moment in the past, or not a time, is refused: 400, no key made', async () => {
    const { token } = await userWithKey();
    const before = (await ownKeys(token)).length;
    for (const expires_at of [new Date(Date.now() - 60_000).toISOString(), 'tomorrow']) {
      const res = await call('/moduleauth/api_key', { token, json: { name: 'late', expires_at } });
      expect(res.status).toBe(400);
    }
    expect(await ownKeys(token)).toHaveLength(before);
  });

  it('lists only the user’s own keys, newest first', async () => {
    const { token, key: first } = await userWithKey();
    const second = await createKey(token, 'second');
    const third = await createKey(token, 'third');
    expect((await ownKeys(token)).map((k) => k.id)).toEqual([third.id, second.id, first.id]);
    expect((await ownKeys(aliceToken)).map((k) => k.id)).not.toContain(first.id);
  });

  it('the database keeps only the SHA-256 of the key, and the prefix', async () => {
    const { user, key } = await userWithKey();
    const [row] = await keyRows(user.id);
    expect(row).toMatchObject({
      id: key.id,
      prefix: key.key.slice(0, 12),
      hash: await sha256Hex(new TextEncoder().encode(key.key)),
    });
    expect(row!.row).not.toContain(key.key);
    expect(row!.row).not.toContain(key.key.slice(12));
  });

  it('a user holds at most 50 keys, even when they are created all at once', async () => {
    const user = await createUser();
    cleanupUsers.push(user.id);
    const token = await tokenFor(user.username, user.password);
    const answers = await Promise.all(
      Array.from({ length: 53 }, (_, i) =>
        call('/moduleauth/api_key', { token, json: { name: `key ${i}` } }),
      ),
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(50);
    expect(statuses.filter((s) => s === 409)).toHaveLength(3);
    const refused = answers.find((res) => res.status === 409)!;
    expect(await refused.json()).toMatchObject({ code: 'too_many_api_keys' });
    expect(await keyRows(user.id)).toHaveLength(50);
    // Revoking one makes room for one.
    const [oldest] = (await ownKeys(token)).slice(-1);
    expect((await revoke(token, oldest!.id)).status).toBe(204);
    await createKey(token);
    expect((await call('/moduleauth/api_key', { token, json: { name: 'x' } })).status).toBe(409);
  });
});

describe('a key acts as its user', () => {
  it('on auth, knowledge (list, query) and chat, which streams an answer from the file', async () => {
    const key = (await createKey(aliceToken)).key;
    const me = await call('/moduleauth/me', { token: key });
    expect(me.status).toBe(200);
    expect((await me.json<{ data: unknown }>()).data).toMatchObject({
      id: alice.id,
      username: alice.username,
      role: 'USER',
    });

    const list = await call('/moduleknowledge/list', { token: key });
    expect(list.status).toBe(200);
    const files = (await list.json<{ data: { id: string }[] }>()).data;
    expect(files.map((f) => f.id)).toContain(file.id);

    const query = await call(`/moduleknowledge/query?text=${WORD} ferry`, { token: key });
    expect(query.status).toBe(200);
    const hits = (await query.json<{ data: { file_id: string }[] }>()).data;
    expect(hits.map((h) => h.file_id)).toContain(file.id);

    const chat = await chatWith(key);
    expect(chat.status).toBe(200);
    const kinds = chat.events.map((e) => e.event);
    expect(kinds.at(-1)).toBe('done');
    expect(kinds.at(-2)).toBe('sources');
    const messages = chat.events
      .filter((e) => e.event === 'message')
      .map((e) => e.data as { type: string; content: string });
    expect(messages.length).toBeGreaterThan(1);
    expect(messages.every((m) => m.type === 'content')).toBe(true);
    expect(chat.events.at(-2)!.data).toEqual(
      expect.arrayContaining([expect.objectContaining({ file_id: file.id })]),
    );
  });

  it('over RPC too: knowledge accepts the key that chat passes on, as auth does', async () => {
    const key = (await createKey(aliceToken)).key;
    expect(await env.AUTH_RPC.GetMe({}, { identity: { token: key } })).toMatchObject({
      ok: true,
      data: { id: alice.id },
    });
    const query = await env.KNOWLEDGE_RPC.GetQuery(
      { text: `${WORD} ferry`, top: 3, file_id: file.id },
      { identity: { token: key } },
    );
    expect(query).toMatchObject({ ok: true });
  });

  it('records when the key was last used', async () => {
    const { user, token, key } = await userWithKey();
    expect((await ownKeys(token))[0]!.last_used_at).toBeNull();
    const before = Date.now();
    expect((await call('/moduleauth/me', { token: key.key })).status).toBe(200);
    const used = (await ownKeys(token))[0]!.last_used_at;
    expect(used).not.toBeNull();
    expect(Date.parse(used!)).toBeGreaterThan(before - 60_000);
    const [row] = await queryRows<{ last_used_at: string | null }>(
      sql`select last_used_at::text as last_used_at from api_keys where user_id = ${user.id}::uuid`,
    );
    expect(row!.last_used_at).not.toBeNull();
  });

  it('with its user’s role: a USER’s key is refused SUPER_ADMIN routes, a SUPER_ADMIN’s passes', async () => {
    const plain = await userWithKey();
    const boss = await userWithKey(true);
    for (const path of ['/moduleauth/users', '/moduleauth/all_api_keys']) {
      expect(await refusal(await call(path, { token: plain.key.key })), path).toEqual(
        ACCESS_DENIED,
      );
      expect((await call(path, { token: boss.key.key })).status, path).toBe(200);
    }
    const me = await call('/moduleauth/me', { token: boss.key.key });
    expect((await me.json<{ data: { role: string } }>()).data.role).toBe('SUPER_ADMIN');
  });

  it('is accepted only in the Authorization header, never in ?t= (nor a form field t)', async () => {
    const key = (await createKey(aliceToken)).key;
    const t = encodeURIComponent(key);
    for (const path of [`/moduleauth/me?t=${t}`, `/moduleknowledge/list?t=${t}`]) {
      const res = await exports.default.fetch(new Request(`${BASE}${path}`));
      expect(await refusal(res), path.split('?')[0]).toEqual(UNAUTHORISED);
    }
    const chat = await exports.default.fetch(
      new Request(`${BASE}/modulechat/chat?t=${t}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ prompt: 'anything' }),
      }),
    );
    expect(await refusal(chat)).toEqual(UNAUTHORISED);
    const form = new FormData();
    form.append('t', key);
    form.append('file', new File([textPdf(`Form ${crypto.randomUUID()}`)], 'f.pdf'));
    const upload = await exports.default.fetch(
      new Request(`${BASE}/moduleknowledge/upload`, { method: 'POST', body: form }),
    );
    expect(await refusal(upload)).toEqual(UNAUTHORISED);
    // The same key in the header works.
    expect((await call('/moduleauth/me', { token: key })).status).toBe(200);
  });

  it('outlives the user’s login sessions: logging out everywhere ends tokens, not keys', async () => {
    const { token, key } = await userWithKey();
    expect((await call('/moduleauth/logout_all', { method: 'POST', token })).status).toBe(204);
    expect(await refusal(await call('/moduleauth/me', { token }))).toEqual(UNAUTHORISED);
    expect((await call('/moduleauth/me', { token: key.key })).status).toBe(200);
  });

  it('cannot create keys: a leaked key must not outlive its revocation through keys it made', async () => {
    const { user, key } = await userWithKey();
    const res = await call('/moduleauth/api_key', { token: key.key, json: { name: 'another' } });
    await expectProblem(res, [403], ['login_required']);
    expect(await keyRows(user.id)).toHaveLength(1);
  });
});

describe('a key does not administer identity: that takes a login (403 login_required)', () => {
  /** Whether a user can still log in with a password, and is not disabled. */
  const logsIn = async (username: string, password: string) =>
    (await login(username, password)).status === 200;

  it('even a SUPER_ADMIN’s key cannot create, promote, disable, reset, log out or delete users', async () => {
    const boss = await userWithKey(true);
    const target = await createUser();
    cleanupUsers.push(target.id);
    const targetToken = await tokenFor(target.username, target.password);
    const newName = uniqueName('minted');
    const attempts: [string, string, unknown][] = [
      [
        'POST',
        '/moduleauth/user',
        { username: newName, password: uniquePassword(), super_admin: true },
      ],
      ['PUT', '/moduleauth/user_role', { user_id: target.id, super_admin: true }],
      ['PUT', '/moduleauth/user_status', { user_id: target.id, disabled: true }],
      ['PUT', '/moduleauth/user_password', { user_id: target.id, password: uniquePassword() }],
      ['POST', '/moduleauth/user_logout_all', { user_id: target.id }],
      ['DELETE', `/moduleauth/user?user_id=${target.id}`, undefined],
    ];
    for (const [method, path, json] of attempts) {
      const res = await call(path, { method, token: boss.key.key, json });
      await expectProblem(res, [403], ['login_required'], `${method} ${path}`);
    }
    // Nothing happened: no new user, the target is as they were, their session still stands.
    const names = (await listAllUsers()).map((u) => u.username);
    expect(names).toContain(target.username);
    expect(names).not.toContain(newName);
    expect(await logsIn(target.username, target.password)).toBe(true);
    const me = await call('/moduleauth/me', { token: targetToken });
    expect(me.status).toBe(200);
    expect((await me.json<{ data: { role: string } }>()).data.role).toBe('USER');
  });

  it('nor change its own user’s password, end their sessions, or create or revoke keys', async () => {
    const { user, token, key } = await userWithKey(true);
    const other = await createKey(token, 'other');
    const attempts: [string, string, unknown][] = [
      [
        'PUT',
        '/moduleauth/password',
        { old_password: user.password, new_password: uniquePassword() },
      ],
      ['POST', '/moduleauth/logout_all', undefined],
      ['POST', '/moduleauth/api_key', { name: 'minted' }],
      ['DELETE', `/moduleauth/api_key?id=${other.id}`, undefined],
    ];
    for (const [method, path, json] of attempts) {
      const res = await call(path, { method, token: key.key, json });
      await expectProblem(res, [403], ['login_required'], `${method} ${path}`);
    }
    expect(await logsIn(user.username, user.password)).toBe(true);
    expect((await call('/moduleauth/me', { token })).status).toBe(200);
    expect((await keyRows(user.id)).map((row) => row.id).sort()).toEqual([key.id, other.id].sort());
  });

  it('reads stay open to a key: me, the user list, its user’s keys, everyone’s keys', async () => {
    const boss = await userWithKey(true);
    for (const path of [
      '/moduleauth/me',
      '/moduleauth/users',
      '/moduleauth/api_keys',
      '/moduleauth/all_api_keys',
    ]) {
      expect((await call(path, { token: boss.key.key })).status, path).toBe(200);
    }
  });

  it('the same changes with a login token of the same user pass', async () => {
    const { token } = await userWithKey(true);
    const target = await createUser();
    cleanupUsers.push(target.id);
    const res = await call('/moduleauth/user_status', {
      method: 'PUT',
      token,
      json: { user_id: target.id, disabled: true },
    });
    expect(res.status).toBe(200);
    expect(await logsIn(target.username, target.password)).toBe(false);
  });
});

describe('a key stops working at once', () => {
  it('when its owner revokes it: the next request is refused by all three modules', async () => {
    const { token, key } = await userWithKey();
    const other = await createKey(token, 'kept');
    expect(await uses(key.key)).toEqual(ALL_200);
    expect((await revoke(token, key.id)).status).toBe(204);
    expect(await uses(key.key)).toEqual(ALL_401);
    expect(await refusal(await call('/moduleauth/me', { token: key.key }))).toEqual(UNAUTHORISED);
    expect(await env.AUTH_RPC.GetMe({}, { identity: { token: key.key } })).toMatchObject({
      ok: false,
      error: { status: 401 },
    });
    expect(
      await env.KNOWLEDGE_RPC.GetQuery({ text: WORD, top: 1 }, { identity: { token: key.key } }),
    ).toMatchObject({ ok: false, error: { status: 401 } });
    expect((await ownKeys(token)).map((k) => k.id)).toEqual([other.id]);
    // Revoked twice: gone.
    expect((await revoke(token, key.id)).status).toBe(404);
    expect((await call('/moduleauth/me', { token: other.key })).status).toBe(200);
  });

  it('when its user is disabled, which revokes every key of theirs: enabling them brings none back', async () => {
    const { user, token, key } = await userWithKey();
    const second = await createKey(token, 'second');
    const bystander = await userWithKey();
    expect(await uses(key.key)).toEqual(ALL_200);
    expect((await setDisabled(user.id, true)).status).toBe(200);
    expect(await uses(key.key)).toEqual(ALL_401);
    expect(await keyRows(user.id)).toEqual([]);
    expect((await setDisabled(user.id, false)).status).toBe(200);
    expect(await uses(key.key)).toEqual(ALL_401);
    expect((await call('/moduleauth/me', { token: second.key })).status).toBe(401);
    expect(await keyRows(user.id)).toEqual([]);
    // Only that user's keys went.
    expect(await keyRows(bystander.user.id)).toHaveLength(1);
    expect((await call('/moduleauth/me', { token: bystander.key.key })).status).toBe(200);
  });

  it('when its user is deleted (and the key goes with them)', async () => {
    const { user, key } = await userWithKey();
    expect((await call('/moduleauth/me', { token: key.key })).status).toBe(200);
    expect((await deleteUser(user.id)).status).toBe(204);
    expect(await uses(key.key)).toEqual(ALL_401);
    expect(await keyRows(user.id)).toEqual([]);
  });
});

describe('revoking and listing anyone’s keys', () => {
  it('a SUPER_ADMIN lists every user’s keys with whose they are, and revokes another’s', async () => {
    const { user, key } = await userWithKey();
    let found: AnyonesKey | undefined;
    let total = 0;
    for (let page = 1; !found; page++) {
      const res = await call(`/moduleauth/all_api_keys?page=${page}&size=100`, { token: admin });
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).not.toContain(key.key);
      const { data } = JSON.parse(text) as {
        data: { items: AnyonesKey[]; total: number; page: number; size: number };
      };
      expect(data).toMatchObject({ page, size: 100 });
      total = data.total;
      found = data.items.find((k) => k.id === key.id);
      if (data.items.length < 100) break;
    }
    expect(total).toBeGreaterThan(0);
    expect(found).toEqual({
      id: key.id,
      name: key.name,
      prefix: key.prefix,
      created_at: key.created_at,
      last_used_at: null,
      expires_at: null,
      user_id: user.id,
      username: user.username,
    });

    expect((await revoke(admin, key.id)).status).toBe(204);
    expect(await refusal(await call('/moduleauth/me', { token: key.key }))).toEqual(UNAUTHORISED);
    expect(await keyRows(user.id)).toEqual([]);
  });

  it('a USER revoking another user’s key gets 404, and the key still works', async () => {
    const { user, key } = await userWithKey();
    const res = await revoke(aliceToken, key.id);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain(user.username);
    expect(await keyRows(user.id)).toHaveLength(1);
    expect((await call('/moduleauth/me', { token: key.key })).status).toBe(200);
    // Nor through another key of the USER's own, which may not revoke keys at all.
    const own = await createKey(aliceToken);
    await expectProblem(await revoke(own.key, key.id), [403], ['login_required']);
    expect((await call('/moduleauth/me', { token: key.key })).status).toBe(200);
  });

  it('a USER cannot list everyone’s keys', async () => {
    expect(await refusal(await call('/moduleauth/all_api_keys', { token: aliceToken }))).toEqual(
      ACCESS_DENIED,
    );
  });
});

describe('hostile input', () => {
  const countKeys = async () =>
    (await queryRows<{ n: number }>(sql`select count(*)::int as n from api_keys`))[0]!.n;

  it.each([
    ['no name', {}],
    ['an empty name', { name: '' }],
    ['a blank name', { name: '   ' }],
    ['a name of 101 characters', { name: 'x'.repeat(101) }],
    ['a NUL in the name', { name: 'a\u0000b' }],
    ['a newline in the name', { name: 'a\nb' }],
    ['an escape in the name', { name: 'a\u001b[31mb' }],
    ['a lone surrogate', { name: 'a\ud800b' }],
    ['a name that is not a string', { name: 42 }],
    ['a name that is an object', { name: { $ne: '' } }],
  ])('%s is refused with 400 and nothing is written', async (_, body) => {
    const before = await countKeys();
    const res = await call('/moduleauth/api_key', { token: aliceToken, json: body });
    expect(res.status).toBe(400);
    expect(await countKeys()).toBe(before);
  });

  it('a name of 100 printable characters (any script) is accepted as given', async () => {
    const name = `密钥 ${'é'.repeat(97)}`;
    expect((await createKey(aliceToken, name)).name).toBe(name);
  });

  it('revoking with an id that is not a uuid is 400; an unknown id is 404', async () => {
    const before = await countKeys();
    for (const id of ['', 'not-a-uuid', "' or 1=1 --", `${crypto.randomUUID()}x`]) {
      expect((await revoke(aliceToken, id)).status, id).toBe(400);
    }
    expect((await revoke(aliceToken, crypto.randomUUID())).status).toBe(404);
    expect((await revoke(admin, crypto.randomUUID())).status).toBe(404);
    expect(await countKeys()).toBe(before);
  });

  it.each([
    ['the mark alone', 'kbc_'],
    ['the mark and garbage', 'kbc_garbage'],
    ['a key of the right shape that was never issued', `kbc_${'A'.repeat(43)}`],
    ['a key one character short', `kbc_${'A'.repeat(42)}`],
    ['a key one character long', `kbc_${'A'.repeat(44)}`],
    ['SQL in a key', "kbc_'||(select hash from api_keys limit 1)||'"],
    ['a very long bearer token', `kbc_${'A'.repeat(8_000)}`],
  ])('%s is refused with 401 by every module', async (_, token) => {
    expect(await uses(token)).toEqual(ALL_401);
  });

  it('a real key with a character changed is refused', async () => {
    const key = (await createKey(aliceToken)).key;
    const last = key.at(-1) === 'A' ? 'B' : 'A';
    expect(await uses(`${key.slice(0, -1)}${last}`)).toEqual(ALL_401);
    // Keys are case-sensitive.
    const upper = `kbc_${key.slice(4).toUpperCase()}`;
    if (upper !== key) expect(await uses(upper)).toEqual(ALL_401);
  });
});
