import type { Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import { base64url } from 'jose';
import { generateRandomState } from 'oauth4webapi';
import { cookieValues } from '../identity/device-cookie';
import { ATTEMPT_LIFETIME_SECONDS } from '../store/sso';
import { HANDOFF_PATH } from './handoff';

/**
 * The attempt cookie binds a sign-in to the browser that started it. Without it, a callback
 * URL is good in any browser: someone who starts a sign-in, signs in at the provider as
 * themselves and stops before the callback could make a logged-out victim open that URL, and
 * the victim would work in the other person's account (login CSRF). The start gives the browser
 * a random value (32 bytes) and keeps only its SHA-256 with the attempt; the callback takes the
 * attempt only together with that value. HttpOnly, Secure (as the handoff cookie), SameSite=Lax
 * (it must come with the top-level return from the provider, a cross-site navigation), for
 * /moduleauth/sso only, and no longer than an attempt lives.
 */
const NAME = 'kbchat-sso-attempt';
const SECURE_NAME = `__Secure-${NAME}`;
const OPTIONS = { prefix: 'secure', path: HANDOFF_PATH, httpOnly: true, sameSite: 'Lax' } as const;
/** A browser sends one; a few more would be cookies planted under a longer path. */
const MAX_VALUES = 4;

async function hashOf(value: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(value));
  return base64url.encode(new Uint8Array(digest));
}

/** A fresh binding: the value for the browser and the hash to keep with the attempt. */
export async function newBrowserBinding(): Promise<{ value: string; hash: string }> {
  const value = generateRandomState();
  return { value, hash: await hashOf(value) };
}

/** Gives the browser its binding (once the attempt is kept). */
export function setAttemptCookie(http: Context, value: string): void {
  setCookie(http, NAME, value, { ...OPTIONS, maxAge: ATTEMPT_LIFETIME_SECONDS });
}

/**
 * The hashes of the attempt cookies the browser sent (none: it started no sign-in here), and
 * the Set-Cookie that clears the cookie: a binding serves one callback.
 */
export async function takeBrowserBinding(http: Context): Promise<string[]> {
  const sent = cookieValues(http.req.header('Cookie'), SECURE_NAME).slice(0, MAX_VALUES);
  if (sent.length === 0) return [];
  deleteCookie(http, NAME, OPTIONS);
  return Promise.all(sent.map(hashOf));
}
