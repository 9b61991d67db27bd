import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { cookieValues, deviceCookieName, setDeviceCookie } from './device-cookie';

describe('the device cookie’s name', () => {
  it('is one per username, the same in any letter case or Unicode form, and hides the name', async () => {
    const name = await deviceCookieName('Alice');
    expect(name).toMatch(/^__Secure-kbchat-device-[A-Za-z0-9_-]{22}$/);
    expect(await deviceCookieName('alice')).toBe(name);
    expect(await deviceCookieName('ALICE')).toBe(name);
    // NFKC: full-width letters are the same username.
    expect(await deviceCookieName('Ａｌｉｃｅ')).toBe(name);
    expect(await deviceCookieName('alice2')).not.toBe(name);
    expect(name.toLowerCase()).not.toContain('alice');
  });
});

describe('reading a Cookie header', () => {
  it('finds every value sent under the name, in order, and nothing else', () => {
    const header = 'a=1; __Secure-x=first;other=2;  __Secure-x = second ; __Secure-xy=3; novalue';
    expect(cookieValues(header, '__Secure-x')).toEqual(['first', 'second']);
    expect(cookieValues(header, '__Secure-z')).toEqual([]);
    expect(cookieValues(undefined, '__Secure-x')).toEqual([]);
    expect(cookieValues('', '__Secure-x')).toEqual([]);
  });
});

describe('setting it', () => {
  it('is HttpOnly, Secure, SameSite=Strict, for /moduleauth only, for 30 days', async () => {
    const app = new Hono();
    app.get('/', async (c) => {
      await setDeviceCookie(c, 'alice', 'the.signed.token');
      await setDeviceCookie(c, 'bob', 'another.signed.token');
      return c.json({});
    });
    const res = await app.request('/');
    const [alice, bob] = res.headers.getSetCookie();
    expect(alice).toBe(
      `${await deviceCookieName('alice')}=the.signed.token; Max-Age=2592000; Path=/moduleauth; HttpOnly; Secure; SameSite=Strict`,
    );
    expect(bob).toMatch(new RegExp(`^${await deviceCookieName('bob')}=another\\.signed\\.token;`));
  });
});
