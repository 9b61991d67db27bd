/**
 * API keys: long-lived credentials for scripts and integrations, sent as
 * `Authorization: Bearer kbc_…` in place of a login token. A key is 32 random bytes, so it
 * cannot be guessed and needs no slow hash: the database keeps only its SHA-256 (a leaked
 * table gives nobody a key) and finds a key by that hash in one index lookup.
 */

export const API_KEY_MARK = 'kbc_';

// 32 bytes are 43 base64url characters without padding.
const API_KEY = /^kbc_[A-Za-z0-9_-]{43}$/;

/** How many leading characters are kept in clear, to recognise a key by in a list. */
const PREFIX_LENGTH = 12;

/** A new key: `kbc_` and 32 random bytes, base64url. */
export function newApiKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  const text = btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
  return API_KEY_MARK + text;
}

/** Whether a bearer token has the shape of an API key (a login token is a JWT, `eyJ…`). */
export function isApiKey(token: string): boolean {
  return API_KEY.test(token);
}

/** What is stored of a key: its SHA-256, lowercase hex. */
export async function apiKeyHash(key: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The start of a key (`kbc_` and 8 characters, 48 bits): shown in lists, not enough to use. */
export function apiKeyPrefix(key: string): string {
  return key.slice(0, PREFIX_LENGTH);
}
