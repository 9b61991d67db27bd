// The audit trail (docs/audit.md): what auth records, GET /moduleauth/audit and its export for
// super admins only, append-only for the workers' role, and the daily prune.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCESS_DENIED,
  call,
  createUser,
  deleteUser,
  login,
  refusal,
  seededAdminToken,
  setDisabled,
  setRole,
  tokenFor,
  uniqueIp,
  uniqueName,
  type TestUser,
} from '../helpers/auth';
import { limitsChangeRecorded } from '../../workers/chat/src/store/audit';
import { limits, setLimits } from '../../workers/chat/src/store/usage';
import { asAppRole, databaseError, inRolledBackTransaction, queryRows } from '../helpers/database';
import { expectProblem } from '../helpers/hostile';

interface Rec {
  id: number;
  at: string;
  actor_id: string | null;
  actor_name: string | null;
  key_id: string | null;
  address: string | null;
  action: string;
  object_type: string | null;
  object_id: string | null;
  object_label: string | null;
  outcome: 'ok' | 'denied' | 'failed';
  detail: Record<string, unknown>;
}

let admin = '';
let alice: TestUser;
let aliceToken = '';
const cleanup: string[] = [];

async function audit(query: Record<string, string>, token = admin) {
  const res = await call(`/moduleauth/audit?${new URLSearchParams(query)}`, { token });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json<{ data: { items: Rec[]; total: number } }>()).data;
}

const me = async (token: string) =>
  (
    await (
      await call('/moduleauth/me', { token })
    ).json<{ data: { id: string; username: string } }>()
  ).data;

/** The records about one object, newest first. */
const about = async (objectId: string) => (await audit({ object: objectId, size: '200' })).items;

beforeAll(async () => {
  admin = await seededAdminToken();
  alice = await createUser();
  cleanup.push(alice.id);
  aliceToken = await tokenFor(alice.username, alice.password);
});

afterAll(async () => {
  for (const id of cleanup) await deleteUser(id);
});

describe('sign-ins', () => {
  it('records a refused sign-in with its reason and address, never the password', async () => {
    const ip = uniqueIp();
    const wrong = `wrong-${crypto.randomUUID()}`;
    expect((await login(alice.username, wrong, ip)).status).toBe(401);
    const nobody = uniqueName('nobody');
    expect((await login(nobody, wrong, ip)).status).toBe(401);

    const [refused] = (
      await audit({ actor: alice.username, action: 'auth.login', outcome: 'denied' })
    ).items;
    expect(refused).toMatchObject({
      action: 'auth.login',
      outcome: 'denied',
      actor_id: null,
      actor_name: alice.username,
      address: ip.toLowerCase(),
      object_type: 'user',
      object_id: alice.id,
      detail: { reason: 'wrong_password' },
    });
    const [unknown] = (await audit({ actor: nobody })).items;
    expect(unknown).toMatchObject({ outcome: 'denied', detail: { reason: 'unknown_user' } });

    const res = await call(`/moduleauth/audit?${new URLSearchParams({ actor: alice.username })}`, {
      token: admin,
    });
    expect(await res.text()).not.toContain(wrong);
  });

  it('records a sign-in as the user, from their address', async () => {
    const ip = uniqueIp();
    expect((await login(alice.username, alice.password, ip)).status).toBe(200);
    const [signedIn] = (await audit({ actor: alice.id, action: 'auth.login', outcome: 'ok' }))
      .items;
    expect(signedIn).toMatchObject({
      actor_id: alice.id,
      actor_name: alice.username,
      address: ip.toLowerCase(),
      object_id: alice.id,
    });
  });
});

describe('keys and users', () => {
  it('records key creation and revocation with the key’s name; a revoked key’s 404 records nothing', async () => {
    const name = `audit key ${crypto.randomUUID().slice(0, 6)}`;
    const made = await call('/moduleauth/api_key', { token: aliceToken, json: { name } });
    expect(made.status).toBe(200);
    const key = (await made.json<{ data: { id: string } }>()).data;
    expect(
      (await call(`/moduleauth/api_key?id=${key.id}`, { method: 'DELETE', token: aliceToken }))
        .status,
    ).toBe(204);
    // A key that is gone: 404, nothing recorded.
    expect(
      (await call(`/moduleauth/api_key?id=${key.id}`, { method: 'DELETE', token: aliceToken }))
        .status,
    ).toBe(404);

    const records = await about(key.id);
    expect(records.map((r) => [r.action, r.object_label, r.actor_id])).toEqual([
      ['auth.key_revoke', name, alice.id],
      ['auth.key_create', name, alice.id],
    ]);
  });

  it('records user creation, role, status and deletion, with the name as it was', async () => {
    const bob = await createUser();
    expect((await setRole(bob.id, true)).status).toBe(200);
    expect((await setRole(bob.id, false)).status).toBe(200);
    expect((await setDisabled(bob.id, true)).status).toBe(200);
    expect((await deleteUser(bob.id)).status).toBe(204);
    expect((await deleteUser(bob.id)).status).toBe(404);
    const records = await about(bob.id);
    expect(records.map((r) => [r.action, r.object_label, r.detail])).toEqual([
      ['auth.user_delete', bob.username, {}],
      ['auth.user_status', bob.username, { disabled: true }],
      ['auth.user_role', bob.username, { super_admin: false }],
      ['auth.user_role', bob.username, { super_admin: true }],
      ['auth.user_create', bob.username, { super_admin: false }],
    ]);
    const { id: adminId } = await me(admin);
    expect(records.every((r) => r.actor_id === adminId)).toBe(true);
  });
});

describe('GET /moduleauth/audit', () => {
  it('filters by module prefix, outcome and time, newest first, paged', async () => {
    // Alice's own records (other files record at the same time): six sign-ins make two pages.
    for (let i = 0; i < 6; i++) await tokenFor(alice.username, alice.password);
    const mine = { action: 'auth.', actor: alice.id, size: '5' };
    const all = await audit(mine);
    expect(all.items).toHaveLength(5);
    expect(all.total).toBeGreaterThanOrEqual(6);
    expect(all.items.every((r) => r.action.startsWith('auth.'))).toBe(true);
    const ids = all.items.map((r) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const page2 = await audit({ ...mine, page: '2' });
    expect(page2.total).toBe(all.total);
    expect(page2.items.length).toBeGreaterThan(0);
    expect(page2.items[0]!.id).toBeLessThan(ids.at(-1)!);

    expect((await audit({ action: 'auth.logi' })).total).toBe(0);
    const future = new Date(Date.now() + 86_400_000).toISOString();
    expect((await audit({ from: future })).total).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect((await audit({ to: today, actor: alice.id })).total).toBeGreaterThan(0);
    // The actor filter takes `%` and `_` as text, not as LIKE's wildcards. (Other tests try
    // names with `%` too, so the name here is this test's own.)
    const tag = crypto.randomUUID().slice(0, 8);
    const tried = await call('/moduleauth/login', {
      json: { username: `q%${tag}`, password: 'not-a-password' },
    });
    expect(tried.status).toBe(401);
    expect((await audit({ actor: `%${tag}` })).total).toBe(1);
    expect((await audit({ actor: `q_${tag}` })).total).toBe(0);
  });

  it('refuses a bad date with 400 naming the field, and everyone but super admins', async () => {
    const res = await call('/moduleauth/audit?from=yesterday', { token: admin });
    const problem = await expectProblem(res, [400], ['validation_failed']);
    expect(JSON.stringify(problem)).toContain('from');
    await expectProblem(
      await call('/moduleauth/audit?from=2026-02-30', { token: admin }),
      [400],
      ['validation_failed'],
    );
    expect(await refusal(await call('/moduleauth/audit', { token: aliceToken }))).toEqual(
      ACCESS_DENIED,
    );
    expect(await refusal(await call('/moduleauth/audit/export', { token: aliceToken }))).toEqual(
      ACCESS_DENIED,
    );
  });

  it('exports CSV with a byte-order mark, the same filters, and records the export', async () => {
    const res = await call(
      `/moduleauth/audit/export?${new URLSearchParams({ object: alice.id })}`,
      {
        token: admin,
      },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    // TextDecoder drops the byte-order mark.
    const lines = new TextDecoder().decode(bytes).trim().split('\r\n');
    expect(lines[0]).toBe(
      'id,at,actor_id,actor_name,key_id,address,action,object_type,object_id,object_label,outcome,detail,hash',
    );
    const listed = await audit({ object: alice.id, size: '200' });
    expect(lines.length - 1).toBe(listed.total);
    expect(lines.slice(1).every((line) => line.includes(alice.id))).toBe(true);

    const [exported] = (await audit({ action: 'auth.audit_export' })).items;
    expect(exported).toMatchObject({
      actor_id: (await me(admin)).id,
      detail: { filters: { object: alice.id } },
    });
  });
});

describe('limits', () => {
  const putLimits = (json: unknown) =>
    call('/modulechat/limits', { method: 'PUT', token: admin, json });

  it('records a change of the limits with the row before and after it', async () => {
    const res = await call('/modulechat/limits', { token: admin });
    expect(res.status).toBe(200);
    const before = (await res.json<{ data: Record<string, unknown> }>()).data;
    // Only the retention changes: other files' chats and uploads meet the same limits.
    const after = { ...before, audit_retention_days: Number(before.audit_retention_days) + 1 };
    expect((await putLimits(after)).status).toBe(200);
    try {
      const [record] = (await audit({ action: 'chat.limits_update', actor: (await me(admin)).id }))
        .items;
      expect(record).toMatchObject({
        object_type: 'limits',
        object_id: '1',
        detail: { before, after },
      });
    } finally {
      expect((await putLimits(before)).status).toBe(200);
    }
  });

  it('records nothing when the change changed no row', async () => {
    // A session that is not a super admin's: the row-level policy lets its update change nothing.
    const marker = `limits-${crypto.randomUUID()}`;
    const answer = await asAppRole({ id: alice.id }, async (tx) => {
      // The worker's statements, built on the test's transaction (the same drizzle queries).
      const db = tx as unknown as Parameters<typeof limits>[0];
      const statement = limitsChangeRecorded(
        db,
        {
          read: limits(db),
          change: setLimits(
            db,
            {
              userDailyTokens: 1,
              userDailyQuestions: 1,
              collectionMaxBytes: 1,
              collectionMaxFiles: 1,
              auditQuestions: false,
              auditRetentionDays: 30,
            },
            alice.id,
          ),
        },
        { action: 'chat.limits_update', actor: { id: alice.id, name: marker } },
      );
      return (await statement).rows;
    });
    expect(answer).toEqual([]);
    expect(await queryRows(sql`select 1 from audit_events where actor_name = ${marker}`)).toEqual(
      [],
    );
    const [row] = await queryRows<{ audit_retention_days: number }>(
      sql`select audit_retention_days from usage_limits`,
    );
    expect(row!.audit_retention_days).not.toBe(30);
  });
});

describe('append-only', () => {
  it('refuses the workers’ role any INSERT, UPDATE, DELETE: kbchat_audit is the only way in', async () => {
    const asAdmin = { id: (await me(admin)).id, superAdmin: true };
    for (const statement of [
      sql`update audit_events set outcome = 'ok'`,
      sql`delete from audit_events`,
      sql`insert into audit_events (action, outcome, prev_hash, hash) values ('auth.login', 'ok', '', '')`,
      sql`truncate audit_events`,
    ]) {
      expect(await databaseError(asAppRole(asAdmin, (tx) => tx.execute(statement)))).toMatch(
        /permission denied/,
      );
    }
    const label = `appended ${crypto.randomUUID()}`;
    await asAppRole(asAdmin, (tx) =>
      tx.execute(
        sql`select kbchat_audit('auth.login', 'ok', null, null, null, null, 'test', null, ${label}, '{}')`,
      ),
    );
    expect((await audit({ object: label })).total).toBe(1);
    expect(
      await databaseError(
        asAppRole(asAdmin, (tx) =>
          tx.execute(
            sql`select kbchat_audit('auth.login', 'maybe', null, null, null, null, null, null, null, '{}')`,
          ),
        ),
      ),
    ).toMatch(/not ok, denied or failed/);
  });

  it('prunes records older than the retention once a day, naming the last removed hash', async () => {
    const outcome = await inRolledBackTransaction(async (tx) => {
      // The two oldest records made old (as the owner); everything else is inside the retention.
      const [oldest] = (
        await tx.execute<{ id: string; hash: string }>(
          sql`select id, hash from audit_events order by id limit 2`,
        )
      ).rows.slice(-1);
      await tx.execute(
        sql`update audit_events set at = now() - interval '4000 days' where id <= ${oldest!.id}`,
      );
      await tx.execute(sql`set local role kbchat_app`);
      const first = await tx.execute<{ n: string | null }>(sql`select kbchat_audit_prune() as n`);
      const again = await tx.execute<{ n: string | null }>(sql`select kbchat_audit_prune() as n`);
      await tx.execute(sql`reset role`);
      const [record] = (
        await tx.execute<{ detail: Record<string, unknown>; prev_hash: string }>(
          sql`select detail, prev_hash from audit_events where action = 'auth.audit_prune' order by id desc limit 1`,
        )
      ).rows;
      const [kept] = (
        await tx.execute<{ prev_hash: string }>(
          sql`select prev_hash from audit_events order by id limit 1`,
        )
      ).rows;
      return { oldest: oldest!, first: first.rows[0]!.n, again: again.rows[0]!.n, record, kept };
    });
    expect(Number(outcome.first)).toBe(2);
    expect(outcome.again).toBeNull();
    expect(outcome.record!.detail).toMatchObject({
      removed: 2,
      retention_days: 1095,
      last_removed_id: Number(outcome.oldest.id),
      last_removed_hash: outcome.oldest.hash,
    });
    expect(outcome.kept!.prev_hash).toBe(outcome.oldest.hash);
  });
});
