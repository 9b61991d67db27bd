import {
  decodeJwt,
  decodeProtectedHeader,
  generateKeyPair,
  SignJWT,
  type CryptoKey,
  type JWTPayload,
} from 'jose';
import { describe, expect, it } from 'vitest';
import {
  call,
  createUser,
  deleteUser,
  flipChar,
  login,
  nowSeconds,
  stackKeys,
  uniqueIp,
  uniqueName,
  uniquePassword,
  type LoginAnswer,
  type TestUser,
} from '../helpers/auth';

// Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): whoever
// logged in on a browser before keeps logging in there, whatever others fail at the same
// address or at the same username; a device cookie is locked out by its own failures only.
// Attempts without a valid device cookie keep the limits auth-login.test.ts checks.
// Every test uses its own users and its own client addresses.

const PREFIX = '__Secure-kbchat-device-';
const WINDOW_SECONDS = 900;
const THIRTY_DAYS_SECONDS = 30 * 24 * 60 * 60;

interface DeviceCookie {
  name: string;
  value: string;
  /** The attributes as sent, e.g. `HttpOnly`, `Path=/moduleauth`. */
  attributes: string[];
}

/** The device cookie a response sets, if any. */
function deviceCookieOf(res: Response): DeviceCookie | undefined {
  const line = res.headers.getSetCookie().find((one) => one.startsWith(PREFIX));
  if (!line) return undefined;
  const [pair, ...attributes] = line.split(';').map((part) => part.trim());
  const at = pair!.indexOf('=');
  return { name: pair!.slice(0, at), value: pair!.slice(at + 1), attributes };
}

/** Logs in sending `cookie` (a browser sends the one stored under the username's name). */
function loginWith(username: string, password: string, ip: string, cookie?: DeviceCookie) {
  return call('/moduleauth/login', {
    json: { username, password },
    ip,
    headers: cookie ? { Cookie: `${cookie.name}=${cookie.value}` } : {},
  });
}

/** Logs in (it must succeed) and returns the token and the device cookie it set, if any. */
async function signIn(user: TestUser, ip: string, cookie?: DeviceCookie) {
  const res = await loginWith(user.username, user.password, ip, cookie);
  expect(res.status).toBe(200);
  const { data } = await res.json<{ data: LoginAnswer }>();
  return { token: data.token, cookie: deviceCookieOf(res) };
}

/** Strangers fail 50 logins from `ip` (the address limit): the next attempt without a device cookie is refused. */
async function strangersFailFrom(ip: string) {
  for (let batch = 0; batch < 5; batch++) {
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        login(uniqueName('stranger'), `wrong-${batch}-${i}-password`, ip),
      ),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(10).fill(401));
  }
}

async function expectThrottled(res: Response) {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
  expect(await res.json()).toMatchObject({ status: 429, code: 'too_many_attempts' });
}

/** The same cookie with another value. */
const withValue = (cookie: DeviceCookie, value: string): DeviceCookie => ({ ...cookie, value });

/** Signs a device cookie's own header and claims again, changed by `change`, with `key`. */
async function resigned(
  cookie: DeviceCookie,
  change: (claims: JWTPayload) => JWTPayload,
  key?: CryptoKey,
): Promise<DeviceCookie> {
  const header = decodeProtectedHeader(cookie.value);
  const claims = change(decodeJwt(cookie.value));
  const value = await new SignJWT(claims)
    .setProtectedHeader({ ...header, alg: 'EdDSA' })
    .sign(key ?? (await stackKeys()).privateKey);
  return withValue(cookie, value);
}

function changePassword(token: string, ip: string, body: object, cookie?: DeviceCookie) {
  return call('/moduleauth/password', {
    method: 'PUT',
    token,
    ip,
    json: body,
    headers: cookie ? { Cookie: `${cookie.name}=${cookie.value}` } : {},
  });
}

describe('device cookies: who logged in before is not locked out by others', () => {
  it('strangers fail 50 logins behind the owner’s address: the owner, with the cookie of an earlier login, still gets in', async () => {
    const owner = await createUser();
    const office = uniqueIp();
    const earlier = await signIn(owner, office);

    await strangersFailFrom(office);

    expect((await loginWith(owner.username, owner.password, office, earlier.cookie)).status).toBe(
      200,
    );
    // Without it, as everyone else at that address: today's limits.
    await expectThrottled(await loginWith(owner.username, owner.password, office));
    const colleague = await createUser();
    await expectThrottled(await loginWith(colleague.username, colleague.password, office));
  });

  it('sets it HttpOnly, Secure, SameSite=Strict, for /moduleauth only, for 30 days: one per username, new at every login', async () => {
    const owner = await createUser({ username: uniqueName('Device') });
    const ip = uniqueIp();
    const first = await signIn(owner, ip);
    expect(first.cookie).toBeDefined();
    const cookie = first.cookie!;
    expect(cookie.name).toMatch(/^__Secure-kbchat-device-[A-Za-z0-9_-]{16,}$/);
    // The name tells nothing readable of the username.
    expect(cookie.name.toLowerCase()).not.toContain(owner.username.toLowerCase());
    expect(cookie.attributes.map((a) => a.toLowerCase()).sort()).toEqual(
      [
        `max-age=${THIRTY_DAYS_SECONDS}`,
        'path=/moduleauth',
        'httponly',
        'secure',
        'samesite=strict',
      ].sort(),
    );

    // Another letter case is the same username, so the same cookie name; a new value.
    const again = await loginWith(owner.username.toUpperCase(), owner.password, ip, cookie);
    expect(again.status).toBe(200);
    const second = deviceCookieOf(again)!;
    expect(second.name).toBe(cookie.name);
    expect(second.value).not.toBe(cookie.value);

    // Another user on the same browser gets a cookie of their own.
    const colleague = await createUser();
    expect((await signIn(colleague, ip)).cookie!.name).not.toBe(cookie.name);

    // Failed logins set none.
    expect(deviceCookieOf(await loginWith(owner.username, 'wrong-password-1', ip))).toBeUndefined();
  });

  it('a device cookie is no bearer token, and a bearer token is no device cookie', async () => {
    const owner = await createUser();
    const office = uniqueIp();
    const { token, cookie } = await signIn(owner, office);
    expect((await call('/moduleauth/me', { token: cookie!.value })).status).toBe(401);
    expect((await call('/moduleknowledge/list', { token: cookie!.value })).status).toBe(401);

    await strangersFailFrom(office);
    await expectThrottled(
      await loginWith(owner.username, owner.password, office, withValue(cookie!, token)),
    );
  });

  it('someone guessing the owner’s password from many addresses and from the owner’s own cannot keep the owner out', async () => {
    const owner = await createUser();
    const home = uniqueIp();
    const { cookie } = await signIn(owner, home);
    // 5 failures of the pair lock out (username, address) for everyone without a cookie…
    const cafe = uniqueIp();
    for (let i = 0; i < 5; i++) {
      expect((await login(owner.username, `guess-${i}-password`, cafe)).status).toBe(401);
    }
    await expectThrottled(await loginWith(owner.username, owner.password, cafe));
    expect((await loginWith(owner.username, owner.password, cafe, cookie)).status).toBe(200);

    // …and beyond 10 the username backs off for addresses it has never logged in from.
    for (let i = 5; i < 14; i++) await login(owner.username, `guess-${i}-password`, uniqueIp());
    const travelling = uniqueIp();
    await expectThrottled(await loginWith(owner.username, owner.password, travelling));
    expect((await loginWith(owner.username, owner.password, travelling, cookie)).status).toBe(200);
  });

  it('a device is locked out by its own 5 failures, and they count against nobody else', async () => {
    const owner = await createUser();
    const ip = uniqueIp();
    const { cookie } = await signIn(owner, ip);
    for (let i = 0; i < 5; i++) {
      const res = await loginWith(owner.username, `typo-${i}-password`, ip, cookie);
      expect(res.status).toBe(401);
    }
    await expectThrottled(await loginWith(owner.username, owner.password, ip, cookie));

    // Those failures were the device's, not the pair's: without the cookie, from the same
    // address, the owner logs in, and that login's new cookie is a device with no failures.
    const fresh = await signIn(owner, ip);
    expect((await loginWith(owner.username, owner.password, ip, fresh.cookie)).status).toBe(200);
    // The locked cookie stays locked for the window.
    await expectThrottled(await loginWith(owner.username, owner.password, ip, cookie));
  });

  it('a success is no failure, and issues a new device: the old cookie keeps its own failures', async () => {
    const owner = await createUser();
    const ip = uniqueIp();
    const { cookie } = await signIn(owner, ip);
    // A client that keeps sending the same cookie logs in as often as it likes.
    for (let i = 0; i < 6; i++) await signIn(owner, ip, cookie);

    for (let i = 0; i < 4; i++) {
      expect((await loginWith(owner.username, `typo-${i}-pw`, ip, cookie)).status).toBe(401);
    }
    const renewed = (await signIn(owner, ip, cookie)).cookie;
    expect((await loginWith(owner.username, 'typo-4-pw', ip, cookie)).status).toBe(401);
    await expectThrottled(await loginWith(owner.username, owner.password, ip, cookie));

    for (let i = 0; i < 4; i++) {
      expect((await loginWith(owner.username, `typo-${i}-pw`, ip, renewed)).status).toBe(401);
    }
    expect((await loginWith(owner.username, owner.password, ip, renewed)).status).toBe(200);
  });

  it('a tampered, forged, expired or other user’s cookie counts as none', async () => {
    const owner = await createUser();
    const other = await createUser();
    const office = uniqueIp();
    const { cookie } = await signIn(owner, office);
    const othersCookie = (await signIn(other, office)).cookie!;
    const { privateKey: strangerKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
    const inThePast = (claims: JWTPayload) => ({
      ...claims,
      iat: nowSeconds() - THIRTY_DAYS_SECONDS - 120,
      nbf: nowSeconds() - THIRTY_DAYS_SECONDS - 120,
      exp: nowSeconds() - 120,
    });
    const same = (claims: JWTPayload) => claims;

    await strangersFailFrom(office);

    const counterfeits = {
      tampered: withValue(cookie!, flipChar(cookie!.value, cookie!.value.length - 10)),
      'signed by another key': await resigned(cookie!, same, strangerKey),
      expired: await resigned(cookie!, inThePast),
      'another user’s': { ...othersCookie, name: cookie!.name },
    };
    for (const [what, counterfeit] of Object.entries(counterfeits)) {
      const res = await loginWith(owner.username, owner.password, office, counterfeit);
      expect(res.status, what).toBe(429);
    }
    // The control: signed again by the real key, unchanged, it still counts.
    const genuine = await resigned(cookie!, same);
    expect((await loginWith(owner.username, owner.password, office, genuine)).status).toBe(200);
  });

  it('a username deleted and created again does not inherit the old account’s device cookie', async () => {
    const first = await createUser();
    const office = uniqueIp();
    const { cookie } = await signIn(first, office);
    expect((await deleteUser(first.id)).status).toBe(204);
    const second = await createUser({ username: first.username });
    const secondOwn = (await signIn(second, office)).cookie;

    await strangersFailFrom(office);

    await expectThrottled(await loginWith(second.username, second.password, office, cookie));
    expect((await loginWith(second.username, second.password, office, secondOwn)).status).toBe(200);
  });

  it('ending the user’s sessions (log out everywhere) ends its device cookies’ standing', async () => {
    const owner = await createUser();
    const office = uniqueIp();
    const { token, cookie } = await signIn(owner, office);
    const out = await call('/moduleauth/logout_all', { method: 'POST', token, ip: office });
    expect(out.status).toBe(204);

    await strangersFailFrom(office);

    await expectThrottled(await loginWith(owner.username, owner.password, office, cookie));
  });
});

describe('device cookies: changing one’s password', () => {
  it('strangers’ 50 failures do not stop the owner, with the device cookie, changing the password', async () => {
    const owner = await createUser();
    const office = uniqueIp();
    const { token, cookie } = await signIn(owner, office);

    await strangersFailFrom(office);

    const newPassword = uniquePassword();
    const res = await changePassword(
      token,
      office,
      { old_password: owner.password, new_password: newPassword },
      cookie,
    );
    expect(res.status).toBe(200);
    // The change ends every session, and the standing of every device cookie with them: the
    // answer carries a new one for this device, which the next login honours.
    const renewed = deviceCookieOf(res);
    expect(renewed?.name).toBe(cookie!.name);
    await expectThrottled(await loginWith(owner.username, newPassword, office, cookie));
    expect((await loginWith(owner.username, newPassword, office, renewed)).status).toBe(200);
  });

  it('without a device cookie the address limit still applies to it', async () => {
    const owner = await createUser();
    const office = uniqueIp();
    const { token } = await signIn(owner, office);
    await strangersFailFrom(office);
    const body = { old_password: owner.password, new_password: uniquePassword() };
    await expectThrottled(await changePassword(token, office, body));
  });

  it('wrong old passwords lock out the device after 5, as failed logins do', async () => {
    const owner = await createUser();
    const ip = uniqueIp();
    const { token, cookie } = await signIn(owner, ip);
    for (let i = 0; i < 5; i++) {
      const body = { old_password: `wrong-${i}-password`, new_password: uniquePassword() };
      const res = await changePassword(token, ip, body, cookie);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'wrong_password' });
    }
    const body = { old_password: owner.password, new_password: uniquePassword() };
    await expectThrottled(await changePassword(token, ip, body, cookie));
    await expectThrottled(await loginWith(owner.username, owner.password, ip, cookie));
    // The device's failures are its own: without it the owner logs in from there.
    expect((await loginWith(owner.username, owner.password, ip)).status).toBe(200);
  });
});
