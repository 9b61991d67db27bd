// Signing out (workers/auth/src/handlers/sessions.ts): out of every other session, which moves
// the session epoch on and answers a new token for this one, and out of this one, which the
// audit trail records. Each writes its audit record in the same batch as its change.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  call,
  createUser,
  refusal,
  tokenFor,
  UNAUTHORISED,
  uniqueIp,
  type TestUser,
} from '../helpers/auth';
import { expectProblem } from '../helpers/hostile';
import { queryRows } from '../helpers/database';

interface AuditRow extends Record<string, unknown> {
  action: string;
  outcome: string;
  actor_id: string | null;
  actor_name: string | null;
  address: string | null;
  object_type: string | null;
  object_id: string | null;
}

const auditOf = (user: TestUser) =>
  queryRows<AuditRow>(sql`
    select action, outcome, actor_id::text, actor_name, address, object_type, object_id
    from audit_events
    where actor_id = ${user.id}::uuid and action in ('auth.logout', 'auth.logout_others')
    order by id`);

/** What a token still opens: auth's and knowledge's answer for it. */
async function opens(token: string) {
  return {
    me: (await call('/moduleauth/me', { token })).status,
    list: (await call('/moduleknowledge/list', { token })).status,
  };
}
const OPEN = { me: 200, list: 200 };
const CLOSED = { me: 401, list: 401 };

describe('sign out of my other sessions: POST /moduleauth/logout_others', () => {
  it('ends every other session; this one carries on with the new token it is given', async () => {
    const user = await createUser();
    const other = await tokenFor(user.username, user.password);
    const own = await tokenFor(user.username, user.password);
    expect(await opens(other)).toEqual(OPEN);
    const ip = uniqueIp();

    const res = await call('/moduleauth/logout_others', { method: 'POST', token: own, ip });
    expect(res.status).toBe(200);
    const { data } = await res.json<{ data: { token: string; expire: string } }>();
    expect(Date.parse(data.expire)).toBeGreaterThan(Date.now());

    expect(await opens(other)).toEqual(CLOSED);
    expect(await opens(own)).toEqual(CLOSED);
    expect(await opens(data.token)).toEqual(OPEN);
    expect(await auditOf(user)).toEqual([
      {
        action: 'auth.logout_others',
        outcome: 'ok',
        actor_id: user.id,
        actor_name: user.username,
        address: expect.any(String),
        object_type: 'user',
        object_id: user.id,
      },
    ]);
  });

  it('an ended session is refused and nothing is recorded; an API key may not do it', async () => {
    const user = await createUser();
    const token = await tokenFor(user.username, user.password);
    const key = await call('/moduleauth/api_key', { token, json: { name: 'laptop' } });
    expect(key.status).toBe(200);
    const { data: created } = await key.json<{ data: { key: string } }>();

    const byKey = await call('/moduleauth/logout_others', { method: 'POST', token: created.key });
    await expectProblem(byKey, [403], ['login_required']);
    expect(await opens(token)).toEqual(OPEN);

    expect((await call('/moduleauth/logout_all', { method: 'POST', token })).status).toBe(204);
    const ended = await call('/moduleauth/logout_others', { method: 'POST', token });
    expect(await refusal(ended)).toEqual(UNAUTHORISED);
    expect(await auditOf(user)).toEqual([]);
  });
});

describe('sign out: POST /moduleauth/logout', () => {
  it('records the sign-out in the audit trail', async () => {
    const user = await createUser();
    const token = await tokenFor(user.username, user.password);
    const res = await call('/moduleauth/logout', { method: 'POST', token });
    expect(res.status).toBe(204);
    expect(await auditOf(user)).toEqual([
      expect.objectContaining({
        action: 'auth.logout',
        outcome: 'ok',
        actor_id: user.id,
        object_id: user.id,
      }),
    ]);
  });

  it('ends this session alone: its token is refused everywhere after, the user’s other sessions carry on', async () => {
    const user = await createUser();
    const token = await tokenFor(user.username, user.password);
    const other = await tokenFor(user.username, user.password);
    expect((await call('/moduleauth/me', { token })).status).toBe(200);
    expect((await call('/moduleauth/logout', { method: 'POST', token })).status).toBe(204);
    // auth, knowledge and chat (each checks the session in its own statements).
    for (const path of ['/moduleauth/me', '/moduleknowledge/list', '/modulechat/conversations']) {
      expect(await refusal(await call(path, { token })), path).toEqual(UNAUTHORISED);
      expect((await call(path, { token: other })).status, path).toBe(200);
    }
    // A second sign-out with it is refused, and only the first is recorded.
    expect(await refusal(await call('/moduleauth/logout', { method: 'POST', token }))).toEqual(
      UNAUTHORISED,
    );
    expect((await auditOf(user)).map((r) => r.action)).toEqual(['auth.logout']);
    const [ended] = await queryRows<{ user_id: string; left: number }>(sql`
      select user_id::text, extract(epoch from expires_at - now())::int as left
      from ended_sessions where user_id = ${user.id}::uuid`);
    // Kept until the token would have expired (12 hours), no longer.
    expect(ended!.user_id).toBe(user.id);
    expect(ended!.left).toBeGreaterThan(12 * 3600 - 120);
    expect(ended!.left).toBeLessThanOrEqual(12 * 3600);
  });

  it('an ended session’s sign-out is refused and not recorded', async () => {
    const user = await createUser();
    const token = await tokenFor(user.username, user.password);
    expect((await call('/moduleauth/logout_all', { method: 'POST', token })).status).toBe(204);
    expect(await refusal(await call('/moduleauth/logout', { method: 'POST', token }))).toEqual(
      UNAUTHORISED,
    );
    expect(await auditOf(user)).toEqual([]);
  });
});
