import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { setHandoff, takeHandoff, type Handoff } from './handoff';

const TOKEN = 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';

function app() {
  const hono = new Hono();
  hono.post('/set', async (c) => {
    setHandoff(c, (await c.req.json()) as Handoff);
    return c.body(null, 204);
  });
  hono.post('/take', (c) => c.json({ handoff: takeHandoff(c) ?? null }));
  return hono;
}

async function roundTrip(handoff: Handoff) {
  const set = await app().request('/set', { method: 'POST', body: JSON.stringify(handoff) });
  const cookie = set.headers.get('Set-Cookie')!;
  const taken = await app().request('/take', {
    method: 'POST',
    headers: { Cookie: cookie.split(';')[0]! },
  });
  return { cookie, taken };
}

describe('the single sign-on handoff cookie', () => {
  it('is HttpOnly, Secure, SameSite=Lax, for /moduleauth/sso, and lives a minute', async () => {
    const { cookie } = await roundTrip({ token: TOKEN, expire: '2026-11-26T12:00:00.000Z' });
    expect(cookie).toMatch(/^__Secure-kbchat-sso=token\./);
    expect(cookie).toContain('Max-Age=60');
    expect(cookie).toContain('Path=/moduleauth/sso');
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('Secure');
    expect(cookie).toContain('SameSite=Lax');
  });

  it('hands back the token and its expiry once, clearing the cookie', async () => {
    const handoff = { token: TOKEN, expire: '2026-11-26T12:00:00.000Z' };
    const { taken } = await roundTrip(handoff);
    expect(await taken.json()).toEqual({ handoff });
    expect(taken.headers.get('Set-Cookie')).toMatch(
      /^__Secure-kbchat-sso=; Max-Age=0;.*Path=\/moduleauth\/sso/,
    );
  });

  it('hands back a refusal as its code', async () => {
    const { taken } = await roundTrip({ error: 'sso_invalid' });
    expect(await taken.json()).toEqual({ handoff: { error: 'sso_invalid' } });
  });

  it('takes a value it did not write as nothing waiting', async () => {
    const taken = await app().request('/take', {
      method: 'POST',
      headers: { Cookie: '__Secure-kbchat-sso=token.not-a-jwt' },
    });
    expect(await taken.json()).toEqual({ handoff: { error: 'sso_nothing_waiting' } });
    const none = await app().request('/take', { method: 'POST' });
    expect(await none.json()).toEqual({ handoff: null });
  });
});
