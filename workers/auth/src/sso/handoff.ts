import type { Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import { cookieValues } from '../identity/device-cookie';

/**
 * How the callback hands its outcome to the web app without a URL: a cookie for a minute,
 * HttpOnly (no script reads it), Secure, SameSite=Lax (it must come with the browser's
 * top-level return from the provider, a cross-site navigation, and with the app's same-site
 * POST that collects it) and sent to /moduleauth/sso only. It holds the login token, or the
 * catalogue code of the refusal, so that PostSsoSession answers either as any call does.
 */
export const HANDOFF_PATH = '/moduleauth/sso';
export const HANDOFF_SECONDS = 60;
const NAME = 'kbchat-sso';
const SECURE_NAME = `__Secure-${NAME}`;

export type Handoff = { token: string; expire: string } | { error: string };

export function setHandoff(http: Context, handoff: Handoff): void {
  const value =
    'error' in handoff ? `error.${handoff.error}` : `token.${handoff.token}.${handoff.expire}`;
  setCookie(http, NAME, value, {
    prefix: 'secure',
    path: HANDOFF_PATH,
    httpOnly: true,
    sameSite: 'Lax',
    maxAge: HANDOFF_SECONDS,
  });
}

/** The handoff the browser sent, if any, and the Set-Cookie that clears it. */
export function takeHandoff(http: Context): Handoff | undefined {
  const [sent] = cookieValues(http.req.header('Cookie'), SECURE_NAME);
  if (sent === undefined) return undefined;
  // setCookie percent-encodes the value (the expiry's colons).
  let value: string;
  try {
    value = decodeURIComponent(sent);
  } catch {
    value = '';
  }
  deleteCookie(http, NAME, {
    prefix: 'secure',
    path: HANDOFF_PATH,
    httpOnly: true,
    sameSite: 'Lax',
  });
  if (value.startsWith('error.')) return { error: value.slice('error.'.length) };
  // A JWT has exactly two dots; the expiry (ISO 8601) follows the third.
  const match = /^token\.([\w-]+\.[\w-]+\.[\w-]+)\.(\d{4}-\d\d-\d\dT[\d:.]+Z)$/.exec(value);
  return match ? { token: match[1]!, expire: match[2]! } : { error: 'sso_nothing_waiting' };
}
