// Refused sign-ins in the audit trail (docs/audit.md, "Refused sign-ins"): every refusal the
// login throttle answers with 401 is recorded, and the first 429, then none from that address
// (or device cookie) until the throttle's window ends — so that nobody signed in can make the
// trail, and the one lock every record takes, grow faster than the throttle lets them try.
// The stack's throttle is the default one: 5 failures per (username, address), 50 per address,
// in a window of 900 s.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call, createUser, login, uniqueIp, uniqueName } from '../helpers/auth';
import { queryRows } from '../helpers/database';

const PAIR_LIMIT = 5;
const ADDRESS_LIMIT = 50;

/** The reasons of the refused sign-ins recorded from `ip`, oldest first. */
async function refusalsFrom(ip: string): Promise<string[]> {
  const rows = await queryRows<{ reason: string }>(
    sql`select detail->>'reason' as reason from audit_events
        where action = 'auth.login' and outcome = 'denied' and address = ${ip.toLowerCase()}
        order by id`,
  );
  return rows.map((row) => row.reason);
}

/** `n` attempts one after another; their statuses. */
async function attempts(n: number, attempt: (i: number) => Promise<Response>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await attempt(i)).status);
  return statuses;
}

describe('refused sign-ins', () => {
  it('from one address: its 401s and its first 429 are recorded, the rest of the window is not', async () => {
    const ip = uniqueIp();
    const ghost = uniqueName('ghost');
    // Five failures of one name, then the throttle refuses that name from there…
    const statuses = await attempts(PAIR_LIMIT + 60, (i) =>
      login(ghost, `wrong-${i}-password`, ip),
    );
    expect(statuses.slice(0, PAIR_LIMIT)).toEqual(Array(PAIR_LIMIT).fill(401));
    expect(statuses.slice(PAIR_LIMIT)).toEqual(Array(60).fill(429));
    // …and the address counts every attempt: up to one past its limit is recorded.
    const reasons = await refusalsFrom(ip);
    expect(reasons).toHaveLength(ADDRESS_LIMIT + 1);
    expect(reasons.slice(0, PAIR_LIMIT)).toEqual(Array(PAIR_LIMIT).fill('unknown_user'));
    expect(new Set(reasons.slice(PAIR_LIMIT))).toEqual(new Set(['too_many_attempts']));

    // Another name from there, in the same window: refused, and not recorded either.
    expect((await login(uniqueName('ghost'), 'any-password', ip)).status).toBe(429);
    expect(await refusalsFrom(ip)).toHaveLength(ADDRESS_LIMIT + 1);
  });

  it('judged by a device cookie: its 401s and its first 429 are recorded, then none', async () => {
    const user = await createUser();
    const ip = uniqueIp();
    const signedIn = await call('/moduleauth/login', {
      json: { username: user.username, password: user.password },
      ip,
    });
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers
      .getSetCookie()
      .find((line) => line.startsWith('__Secure-kbchat-device-'))!
      .split(';')[0]!;
    // The device is judged by its own failures alone (not the address's).
    const statuses = await attempts(PAIR_LIMIT + 10, (i) =>
      call('/moduleauth/login', {
        json: { username: user.username, password: `wrong-${i}-password` },
        ip,
        headers: { Cookie: cookie },
      }),
    );
    expect(statuses.slice(0, PAIR_LIMIT)).toEqual(Array(PAIR_LIMIT).fill(401));
    expect(statuses.slice(PAIR_LIMIT)).toEqual(Array(10).fill(429));
    expect(await refusalsFrom(ip)).toEqual([
      ...Array(PAIR_LIMIT).fill('wrong_password'),
      'too_many_attempts',
    ]);
  });
});
