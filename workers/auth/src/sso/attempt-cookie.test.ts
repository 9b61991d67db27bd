import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { newBrowserBinding, setAttemptCookie, takeBrowserBinding } from './attempt-cookie';

function app() {
  const hono = new Hono();
  hono.post('/set', async (c) => {
    setAttemptCookie(c, ((await c.req.json()) as { value: string }).value);
    return c.body(null, 204);
  });
  hono.post('/take', async (c) => c.json({ hashes: await takeBrowserBinding(c) }));
  return hono;
}

const take = (cookie?: string) =>
  app().request('/take', { method: 'POST', headers: cookie ? { Cookie: cookie } : {} });

describe('the single sign-on attempt cookie', () => {
  it('is random, HttpOnly, Secure, SameSite=Lax, for /moduleauth/sso, for an attempt’s lifetime', async () => {
    const a = await newBrowserBinding();
    const b = await newBrowserBinding();
    expect(a.value).toMatch(/^[\w-]{43}$/);
    expect(a.value).not.toBe(b.value);
    expect(a.hash).not.toBe(a.value);
    const set = await app().request('/set', {
      method: 'POST',
      body: JSON.stringify({ value: a.value }),
    });
    const cookie = set.headers.get('Set-Cookie')!;
    expect(cookie.startsWith(`__Secure-kbchat-sso-attempt=${a.value};`)).toBe(true);
    for (const part of [
      'Max-Age=600',
      'Path=/moduleauth/sso',
      'HttpOnly',
      'Secure',
      'SameSite=Lax',
    ]) {
      expect(cookie).toContain(part);
    }
  });

  it('answers the hash kept with the attempt for the value the browser sends, and clears it', async () => {
    const binding = await newBrowserBinding();
    const res = await take(`other=1; __Secure-kbchat-sso-attempt=${binding.value}`);
    expect(await res.json()).toEqual({ hashes: [binding.hash] });
    expect(res.headers.get('Set-Cookie')).toMatch(
      /^__Secure-kbchat-sso-attempt=; Max-Age=0;.*Path=\/moduleauth\/sso/,
    );
  });

  it('answers nothing for a browser that started no sign-in, and another value for another', async () => {
    const none = await take();
    expect(await none.json()).toEqual({ hashes: [] });
    expect(none.headers.get('Set-Cookie')).toBeNull();
    const binding = await newBrowserBinding();
    const other = await take('__Secure-kbchat-sso-attempt=made-up-by-someone-else');
    const { hashes } = (await other.json()) as { hashes: string[] };
    expect(hashes).toHaveLength(1);
    expect(hashes).not.toContain(binding.hash);
  });
});
