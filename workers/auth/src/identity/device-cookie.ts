import { base64url } from 'jose';
import type { Context } from 'hono';
import { setCookie } from 'hono/cookie';
import { DEVICE_LIFETIME_SECONDS } from './device-token';
import { AUTH_MODULE } from '../module';

/**
 * The device cookie: one per username on a browser (a shared office PC has several users),
 * named by a hash of the normalised username so that the browser sends the right one with each
 * login. HttpOnly (never readable by script), Secure, SameSite=Strict, and sent to /moduleauth
 * only: nothing else needs it. Browsers count http://localhost and http://127.0.0.1 as secure,
 * so the local stack keeps it too.
 */

const SECURE_PREFIX = '__Secure-';

/** The cookie's name for `username`, as typed at login or as stored: the same for both. */
export async function deviceCookieName(username: string): Promise<string> {
  const normalised = username.normalize('NFKC').toLowerCase();
  const digest = await crypto.subtle.digest(
    'SHA-256',
    new TextEncoder().encode(`kbchat-device|${normalised}`),
  );
  return `${SECURE_PREFIX}kbchat-device-${base64url.encode(new Uint8Array(digest)).slice(0, 22)}`;
}

/**
 * Every value sent under `name` in a Cookie header, in the order sent: a planted cookie of the
 * same name (a more specific path is sent first) must not hide the real one.
 */
export function cookieValues(header: string | null | undefined, name: string): string[] {
  if (!header) return [];
  const values: string[] = [];
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) values.push(pair.slice(at + 1).trim());
  }
  return values;
}

/** Adds the Set-Cookie of `username`'s device cookie, holding `token`, to the answer. */
export async function setDeviceCookie(http: Context, username: string, token: string) {
  const name = await deviceCookieName(username);
  setCookie(http, name.slice(SECURE_PREFIX.length), token, {
    prefix: 'secure',
    path: AUTH_MODULE.prefix,
    httpOnly: true,
    sameSite: 'Strict',
    maxAge: DEVICE_LIFETIME_SECONDS,
  });
}
