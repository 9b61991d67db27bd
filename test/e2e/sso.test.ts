// Single sign-on in Chromium against a real OpenID provider: the local identity provider
// (oidc-provider, dev/stack/identity-provider.ts) and a stack of this file's own whose auth
// worker is configured for it. The whole round trip (the login page's button, the provider's
// form, the callback, the web app collecting its token), the second visit reusing the linked
// user, the role from the groups claim, and hostile returns: an unknown state, a replayed
// callback, a callback URL carried to another browser (login CSRF), and ID tokens forged at the
// provider's real token endpoint (wrong nonce, issuer, audience, signature, expired), each
// refused with its catalogue error and nothing written; an account squatted by sign-up under
// someone's email is not linked to them; a role claim cannot demote the last super admin; one
// address cannot take every sign-in under way.
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { decodeJwt, generateKeyPair, importJWK, SignJWT, type JWTPayload } from 'jose';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchDev, type DevStack } from '../../dev/stack/launch-dev.ts';
import { LOCAL_ADMIN } from '../../dev/stack/seed.ts';
import {
  ADMIN_GROUP,
  freePort,
  LOCAL_ACCOUNTS,
  LOCAL_CLIENT,
  startIdentityProvider,
  type LocalAccount,
  type RunningIdentityProvider,
} from '../../dev/stack/identity-provider.ts';
import { launchBrowser, openPage, screenshot, type Session } from './browser';

let dev: DevStack;
let idp: RunningIdentityProvider;
let browser: Browser;
let dataDir: string;
let adminToken: string;
const LABEL = 'Local ID';
const MAX_PENDING = 20;
const MAX_PENDING_PER_ADDRESS = 5;
/**
 * The provider's accounts: the local ones, chen (whose email someone registers first) and zhao
 * (an administrator whose group the provider takes away). The provider reads them at each
 * sign-in, so a test can change a group.
 */
const ACCOUNTS: Record<string, LocalAccount> = {
  ...LOCAL_ACCOUNTS,
  chen: { password: 'chen-sso-password', email: 'chen@example.org', groups: [], name: '陈静' },
  zhao: {
    password: 'zhao-sso-password',
    email: 'zhao@example.org',
    groups: [ADMIN_GROUP],
    name: '赵敏',
  },
};
/** Sign-in round trips measured here, ms (printed at the end, docs/measurements). */
const timings: { what: string; ms: number }[] = [];

beforeAll(async () => {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  // Held while the stack starts, so that none of its processes takes the provider's port.
  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'kbchat-e2e-sso-'));
  dev = await launchDev({
    dataDir,
    env: {
      KBCHAT_WEB_PREBUILT: '1',
      KBCHAT_VAR_OIDC_ISSUER: issuer,
      KBCHAT_VAR_OIDC_CLIENT_ID: LOCAL_CLIENT.id,
      KBCHAT_VAR_OIDC_CLIENT_SECRET: LOCAL_CLIENT.secret,
      KBCHAT_VAR_OIDC_LABEL: LABEL,
      // Small, so that the last test can reach them (sign-ins under way at once).
      KBCHAT_VAR_OIDC_MAX_PENDING: String(MAX_PENDING),
      KBCHAT_VAR_OIDC_MAX_PENDING_PER_ADDRESS: String(MAX_PENDING_PER_ADDRESS),
      // As deployed on Cloudflare (the edge sets CF-Connecting-IP): the last test starts
      // sign-ins from several addresses. The browser sends none (all its calls are "unknown").
      KBCHAT_VAR_TRUST_CF_CONNECTING_IP: 'true',
      // Linking by verified email, with sign-up open: no account may be linked by email then.
      KBCHAT_VAR_OIDC_MATCH_EMAIL: 'true',
      KBCHAT_VAR_ALLOW_SIGNUP: 'true',
      KBCHAT_VAR_OIDC_ADMIN_CLAIM: 'groups',
      KBCHAT_VAR_OIDC_ADMIN_VALUE: ADMIN_GROUP,
    },
  });
  // The provider needs the stack's callback address, the stack the provider's: the port was
  // chosen first, and auth fetches the provider's metadata only at the first sign-in.
  await new Promise<void>((resolve) => holder.close(() => resolve()));
  idp = await startIdentityProvider({
    port,
    redirectUris: [`${dev.baseUrl}/moduleauth/sso/callback`],
    accounts: ACCOUNTS,
  });
  browser = await launchBrowser();
  adminToken = await passwordLogin(LOCAL_ADMIN.username, LOCAL_ADMIN.password);
});

afterAll(async () => {
  if (timings.length > 0) {
    console.log(
      'single sign-on round trips (click to logged in, local provider):\n' +
        timings.map(({ what, ms }) => `  ${what}: ${ms.toFixed(0)} ms`).join('\n'),
    );
  }
  await browser?.close();
  await idp?.close();
  await dev?.stop('SIGINT');
  if (dataDir && !process.env.KEEP_SSO_DATA) await rm(dataDir, { recursive: true, force: true });
});

async function api<T>(
  pathname: string,
  options: { token?: string; json?: unknown; method?: 'PUT' } = {},
) {
  const res = await fetch(`${dev.baseUrl}${pathname}`, {
    method: options.method ?? (options.json === undefined ? 'GET' : 'POST'),
    headers: {
      ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
      ...(options.json === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

async function passwordLogin(username: string, password: string): Promise<string> {
  const res = await api<{ data: { token: string } }>('/moduleauth/login', {
    json: { username, password },
  });
  expect(res.status).toBe(200);
  return res.body.data.token;
}

type UserRow = { id: string; username: string; role: string };

async function users(): Promise<UserRow[]> {
  const res = await api<{ data: { items: UserRow[] } }>('/moduleauth/users?size=100', {
    token: adminToken,
  });
  expect(res.status).toBe(200);
  return res.body.data.items;
}

async function ssoRecords(outcome: 'ok' | 'denied' | 'failed', token = adminToken) {
  const res = await api<{
    data: { total: number; items: { actor_name?: string; detail: { reason?: string } }[] };
  }>(`/moduleauth/audit?action=auth.sso_login&outcome=${outcome}&size=200`, { token });
  expect(res.status).toBe(200);
  return res.body.data;
}

/** The login token the page keeps for this tab, if any. */
const tokenOf = (page: Page) => page.evaluate(() => sessionStorage.getItem('kbchat.token'));

/**
 * Clicks "Sign in with …" and, when the provider asks (no session there yet), logs in with
 * the account's password on its form. Resolves with the web app's PostSsoSession answer.
 */
async function signInWithSso(page: Page, account: string, buttonName = `Sign in with ${LABEL}`) {
  // The hops (app, provider, callback, app) take a while on a loaded machine: a minute at most.
  const collected = page.waitForResponse((r) => r.url().endsWith('/moduleauth/sso/session'), {
    timeout: 60_000,
  });
  const started = performance.now();
  await page.getByRole('link', { name: buttonName }).click();
  const reached = await Promise.race([
    page
      .waitForURL((url) => url.pathname.startsWith('/interaction/'), { timeout: 60_000 })
      .then(() => 'form' as const),
    collected.then(() => 'back' as const),
  ]);
  if (reached === 'form') {
    await page.getByLabel('Username').fill(account);
    await page.getByLabel('Password').fill(ACCOUNTS[account]!.password);
    await page.getByRole('button', { name: 'Sign in' }).click({ timeout: 60_000 });
  }
  const response = await collected;
  return { response, started, providerForm: reached === 'form' };
}

async function loggedInAs(page: Page, username: string) {
  await expect
    .poll(() => page.locator('.who-name').textContent(), { timeout: 30_000 })
    .toContain(username);
}

describe('single sign-on against the local OpenID provider', () => {
  it('signs a new user in, and a second visit reuses the linked user', async () => {
    const before = await users();
    expect(before.map((u) => u.username)).not.toContain('bob');
    const { page, context, errors } = await openPage(browser, dev.baseUrl);
    try {
      await page.goto('/');
      await screenshot(page, 'sso-login-en-desktop');
      const first = await signInWithSso(page, 'bob');
      expect(first.providerForm).toBe(true);
      expect(first.response.status()).toBe(200);
      await loggedInAs(page, 'bob');
      timings.push({
        what: 'first sign-in (provider form filled)',
        ms: performance.now() - first.started,
      });
      expect(page.url()).not.toContain('#/sso');
      const token = await tokenOf(page);
      const me = await api<{ data: { id: string; role: string } }>('/moduleauth/me', {
        token: token!,
      });
      expect(me.body.data.role).toBe('USER');
      const bob = (await users()).filter((u) => u.username === 'bob');
      expect(bob).toEqual([expect.objectContaining({ id: me.body.data.id })]);
      // Nothing of the sign-in is left in a cookie script can read, nor in the address.
      expect(await page.evaluate(() => document.cookie)).not.toContain('sso');
      expect((await context.cookies()).filter((c) => c.name.includes('kbchat-sso'))).toEqual([]);

      // The tab forgets its token, then signs in again: the provider still knows the browser
      // (no form), and the same user comes back. Five times, for the round trip's median.
      const rounds: number[] = [];
      for (let round = 0; round < 5; round++) {
        await page.evaluate(() => sessionStorage.clear());
        await page.reload();
        const again = await signInWithSso(page, 'bob');
        expect(again.providerForm).toBe(false);
        await loggedInAs(page, 'bob');
        rounds.push(performance.now() - again.started);
      }
      rounds.sort((a, b) => a - b);
      timings.push({ what: 'sign-in with a provider session, median of 5', ms: rounds[2]! });
      timings.push({ what: 'sign-in with a provider session, slowest of 5', ms: rounds[4]! });
      const same = await api<{ data: { id: string } }>('/moduleauth/me', {
        token: (await tokenOf(page))!,
      });
      expect(same.body.data.id).toBe(me.body.data.id);
      expect((await users()).length).toBe(before.length + 1);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('makes a member of the admin group a super admin', async () => {
    const { page, context } = await openPage(browser, dev.baseUrl);
    const signedIn = (await ssoRecords('ok')).total;
    try {
      await page.goto('/');
      await signInWithSso(page, 'alice');
      await loggedInAs(page, 'alice');
      const me = await api<{ data: { role: string } }>('/moduleauth/me', {
        token: (await tokenOf(page))!,
      });
      expect(me.body.data.role).toBe('SUPER_ADMIN');
      expect((await ssoRecords('ok')).total).toBe(signedIn + 1);
    } finally {
      await context.close();
    }
  });

  it('offers single sign-on in Chinese, and on a phone', async () => {
    const zh = await openPage(browser, dev.baseUrl, 'desktop', 'zh-CN');
    const phone = await openPage(browser, dev.baseUrl, 'phone');
    try {
      await zh.page.goto('/');
      await expect
        .poll(() => zh.page.getByRole('link', { name: `使用 ${LABEL} 登录` }).isVisible())
        .toBe(true);
      await screenshot(zh.page, 'sso-login-zh-desktop');
      await phone.page.goto('/');
      await expect
        .poll(() => phone.page.getByRole('link', { name: `Sign in with ${LABEL}` }).isVisible())
        .toBe(true);
      await screenshot(phone.page, 'sso-login-en-phone');
    } finally {
      await zh.context.close();
      await phone.context.close();
    }
  });
});

describe('hostile returns to the callback', () => {
  /** Nothing written: no user for `account`, no token in the page, the refusal shown. */
  async function refused(session: Session, account: string, words: string) {
    await expect.poll(() => session.page.locator('.login .notice').textContent()).toContain(words);
    expect(await tokenOf(session.page)).toBeNull();
    expect((await users()).map((u) => u.username)).not.toContain(account);
  }

  it('refuses an unknown state, and records nothing of it (anyone can send those)', async () => {
    const session = await openPage(browser, dev.baseUrl);
    try {
      const failed = (await ssoRecords('failed')).total;
      await session.page.goto(
        `/moduleauth/sso/callback?code=made-up&state=unknown-state&iss=${encodeURIComponent(idp.issuer)}`,
      );
      await refused(session, 'nobody', 'This sign-in has expired or was already used');
      expect((await ssoRecords('failed')).total).toBe(failed);
    } finally {
      await session.context.close();
    }
  });

  it('refuses a replayed callback: a state completes once', async () => {
    const first = await openPage(browser, dev.baseUrl);
    let callback = '';
    try {
      first.page.on('request', (request) => {
        if (request.url().includes('/moduleauth/sso/callback')) callback = request.url();
      });
      await first.page.goto('/');
      await signInWithSso(first.page, 'bob');
      await loggedInAs(first.page, 'bob');
    } finally {
      await first.context.close();
    }
    expect(callback).toContain('state=');
    const count = (await users()).length;
    const replay = await openPage(browser, dev.baseUrl);
    try {
      await replay.page.goto(callback);
      await expect
        .poll(() => replay.page.locator('.login .notice').textContent())
        .toContain('This sign-in has expired or was already used');
      expect(await tokenOf(replay.page)).toBeNull();
      expect((await users()).length).toBe(count);
    } finally {
      await replay.context.close();
    }
  });

  it('signs nobody in with a callback URL carried to another browser (login CSRF)', async () => {
    // Someone starts a sign-in, signs in at the provider as themselves (bob) and stops before
    // the provider's redirect to the callback reaches the service: they keep its URL.
    const attacker = await openPage(browser, dev.baseUrl);
    const victim = await openPage(browser, dev.baseUrl);
    let callback = '';
    try {
      // Chromium stops the request to the callback (a redirect's target, which Playwright's
      // routing does not see) and tells its URL.
      const cdp = await attacker.context.newCDPSession(attacker.page);
      cdp.on('Fetch.requestPaused', (paused) => {
        callback = paused.request.url;
        void cdp.send('Fetch.failRequest', {
          requestId: paused.requestId,
          errorReason: 'Aborted',
        });
      });
      await cdp.send('Fetch.enable', { patterns: [{ urlPattern: '*/moduleauth/sso/callback*' }] });
      await attacker.page.goto('/');
      await attacker.page.getByRole('link', { name: `Sign in with ${LABEL}` }).click();
      await attacker.page.getByLabel('Username').fill('bob');
      await attacker.page.getByLabel('Password').fill(ACCOUNTS.bob!.password);
      await attacker.page.getByRole('button', { name: 'Sign in' }).click();
      await expect.poll(() => callback, { timeout: 60_000 }).toContain('state=');
      const count = (await users()).length;
      const failed = (await ssoRecords('failed')).total;

      // A logged-out victim opens it (a link, an image, a page that redirects): refused.
      await victim.page.goto(callback);
      await expect
        .poll(() => victim.page.locator('.login .notice').textContent())
        .toContain('This sign-in has expired or was already used');
      expect(await tokenOf(victim.page)).toBeNull();
      expect((await users()).length).toBe(count);
      const records = await ssoRecords('failed');
      expect(records.total).toBe(failed + 1);
      expect(records.items[0]!.detail.reason).toMatch(/not started in this browser/);

      // The URL was a good one: in the browser that started the sign-in it completes.
      await cdp.send('Fetch.disable');
      await attacker.page.goto(callback);
      await loggedInAs(attacker.page, 'bob');
    } finally {
      await attacker.context.close();
      await victim.context.close();
    }
  });

  // Each case signs in as wang, whom the service does not know yet: a refused sign-in must
  // create no user. The token endpoint is the provider's own; only the ID token it answers
  // with is forged, signed with the provider's key (or, for the signature case, another).
  const forgeries: [string, (claims: JWTPayload) => JWTPayload, 'own' | 'foreign', RegExp][] = [
    ['a nonce of another sign-in', (c) => ({ ...c, nonce: 'another-sign-in' }), 'own', /"nonce"/],
    ['another issuer', (c) => ({ ...c, iss: 'http://127.0.0.1:9/elsewhere' }), 'own', /"iss"/],
    ['another audience', (c) => ({ ...c, aud: 'another-client' }), 'own', /"aud"/],
    [
      'an expired token',
      (c) => ({
        ...c,
        iat: Math.floor(Date.now() / 1000) - 7200,
        exp: Math.floor(Date.now() / 1000) - 3600,
      }),
      'own',
      /"exp"/,
    ],
    ['a signature by a key the provider does not publish', (c) => c, 'foreign', /signature/],
  ];

  it.each(forgeries)('refuses an ID token with %s', async (_, forge, key, reason) => {
    const session = await openPage(browser, dev.baseUrl);
    const failed = (await ssoRecords('failed')).total;
    idp.rewriteIdToken = async (idToken) => {
      const signer =
        key === 'own'
          ? await importJWK(idp.signingKey, 'RS256')
          : (await generateKeyPair('RS256')).privateKey;
      // The same key id as the provider's: the client finds the published key, and the
      // signature made with another does not verify against it.
      return new SignJWT(forge(decodeJwt(idToken)))
        .setProtectedHeader({ alg: 'RS256', kid: idp.signingKey.kid, typ: 'JWT' })
        .sign(signer);
    };
    try {
      await session.page.goto('/');
      const { response } = await signInWithSso(session.page, 'wang');
      expect(response.status()).toBe(401);
      await refused(session, 'wang', 'could not be verified');
      // Refused for the forgery itself (the audit record keeps the check that failed).
      const records = await ssoRecords('failed');
      expect(records.total).toBe(failed + 1);
      expect(records.items[0]!.detail.reason).toMatch(reason);
    } finally {
      idp.rewriteIdToken = undefined;
      await session.context.close();
    }
  });

  it('signs wang in once nothing is forged (the refusals above were the forgeries)', async () => {
    const { page, context } = await openPage(browser, dev.baseUrl, 'desktop', 'zh-CN');
    try {
      await page.goto('/');
      await signInWithSso(page, 'wang', `使用 ${LABEL} 登录`);
      await loggedInAs(page, 'wang');
      expect((await users()).filter((u) => u.username === 'wang')).toHaveLength(1);
    } finally {
      await context.close();
    }
  });
});

describe('linking by verified email (OIDC_MATCH_EMAIL) while sign-up is open', () => {
  it('links no account anyone could have registered: the squatter keeps theirs, chen gets her own', async () => {
    // Before chen's first sign-in, someone registers her email as a username, with a password
    // of their own.
    const squatter = { username: 'chen@example.org', password: 'squatter-password-2026' };
    const squat = await api<{ data: { id: string } }>('/moduleauth/signup', { json: squatter });
    expect(squat.status).toBe(200);
    const { page, context } = await openPage(browser, dev.baseUrl);
    try {
      await page.goto('/');
      await signInWithSso(page, 'chen');
      await loggedInAs(page, 'chen');
      const me = await api<{ data: { id: string; username: string } }>('/moduleauth/me', {
        token: (await tokenOf(page))!,
      });
      expect(me.body.data.id).not.toBe(squat.body.data.id);
      expect(me.body.data.username).toBe('chen');
      const records = await ssoRecords('ok');
      expect(records.items[0]).toMatchObject({ actor_name: 'chen', detail: { how: 'created' } });
      // The squatter's password still opens only the squatter's own account.
      const theirs = await api<{ data: { id: string } }>('/moduleauth/me', {
        token: await passwordLogin(squatter.username, squatter.password),
      });
      expect(theirs.body.data.id).toBe(squat.body.data.id);
    } finally {
      await context.close();
    }
  });
});

describe('a role claim and the last super admin', () => {
  it('refuses a sign-in whose claim would demote the last super admin, as such, changing nothing', async () => {
    const first = await openPage(browser, dev.baseUrl);
    let zhaoToken = '';
    try {
      await first.page.goto('/');
      await signInWithSso(first.page, 'zhao');
      await loggedInAs(first.page, 'zhao');
      zhaoToken = (await tokenOf(first.page))!;
    } finally {
      await first.context.close();
    }
    // zhao (a super admin by the group) makes every other super admin a user, and so is the
    // last one; then the provider takes the group away.
    const others = (await users()).filter((u) => u.role === 'SUPER_ADMIN' && u.username !== 'zhao');
    expect(others.length).toBeGreaterThan(0);
    const setRole = (id: string, superAdmin: boolean) =>
      api('/moduleauth/user_role', {
        method: 'PUT',
        token: zhaoToken,
        json: { user_id: id, super_admin: superAdmin },
      });
    const second = await openPage(browser, dev.baseUrl);
    try {
      for (const other of others) expect((await setRole(other.id, false)).status).toBe(200);
      ACCOUNTS.zhao!.groups = [];
      const denied = (await ssoRecords('denied', zhaoToken)).total;
      await second.page.goto('/');
      const { response } = await signInWithSso(second.page, 'zhao');
      expect(response.status()).toBe(409);
      expect(((await response.json()) as { code: string }).code).toBe('sso_last_super_admin');
      await expect
        .poll(() => second.page.locator('.login .notice').textContent())
        .toContain('you are the last super admin here');
      expect(await tokenOf(second.page)).toBeNull();
      // Nothing changed: zhao is still a super admin, and their session still holds.
      const me = await api<{ data: { role: string } }>('/moduleauth/me', { token: zhaoToken });
      expect(me.body.data.role).toBe('SUPER_ADMIN');
      const records = await ssoRecords('denied', zhaoToken);
      expect(records.total).toBe(denied + 1);
      expect(records.items[0]).toMatchObject({
        actor_name: 'zhao',
        detail: { reason: 'sso_last_super_admin' },
      });
    } finally {
      ACCOUNTS.zhao!.groups = [ADMIN_GROUP];
      for (const other of others) await setRole(other.id, true);
      // The seeded admin's role changed twice: their earlier token ended with it.
      adminToken = await passwordLogin(LOCAL_ADMIN.username, LOCAL_ADMIN.password);
      await second.context.close();
    }
  });
});

// Last: it leaves abandoned sign-ins behind (they expire after ten minutes).
describe('sign-ins started and never finished', () => {
  const start = (address: string) =>
    fetch(`${dev.baseUrl}/moduleauth/sso/start`, {
      redirect: 'manual',
      headers: { 'CF-Connecting-IP': address },
    });
  const expectBusy = async (res: Response) => {
    expect(res.status).toBe(503);
    expect(res.headers.get('Set-Cookie')).toBeNull();
    expect(((await res.json()) as { code: string }).code).toBe('sso_busy');
  };

  it('are bounded per address: one address cannot take them all', async () => {
    const one = '203.0.113.7';
    for (let i = 0; i < MAX_PENDING_PER_ADDRESS; i++) {
      const res = await start(one);
      expect(res.status).toBe(302);
      expect(res.headers.get('Set-Cookie')).toMatch(/^__Secure-kbchat-sso-attempt=[\w-]{43};/);
    }
    await expectBusy(await start(one));
    // Another address still starts one.
    expect((await start('203.0.113.8')).status).toBe(302);
  });

  it('are bounded in all: past OIDC_MAX_PENDING a start answers 503 sso_busy and keeps nothing', async () => {
    let started = 0;
    let refused: Response | undefined;
    for (let i = 0; i < MAX_PENDING + 5 && !refused; i++) {
      const res = await start(`198.51.100.${i + 1}`);
      if (res.status === 302) started++;
      else refused = res;
    }
    // (The test above left six under way; earlier tests' sign-ins finished, each deleting its
    // own, and any left unfinished count too.)
    expect(started).toBeGreaterThan(0);
    expect(started).toBeLessThanOrEqual(MAX_PENDING - MAX_PENDING_PER_ADDRESS - 1);
    await expectBusy(refused!);
    // And it stays refused, from any address: nothing was kept by the refusal.
    await expectBusy(await start('198.51.100.200'));
  });
});
