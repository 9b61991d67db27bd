/**
 * The login token, kept in sessionStorage: it lives as long as the tab, survives a reload and
 * is read again before every call (so a token changed or removed elsewhere takes effect).
 */
const TOKEN_KEY = 'kbchat.token';
const EXPIRE_KEY = 'kbchat.expire';
const USERNAME_KEY = 'kbchat.username';

export const session = {
  token(): string | undefined {
    return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
  },
  /** When the token expires (ms since the epoch), if known. */
  expiresAt(): number | undefined {
    const value = Number(sessionStorage.getItem(EXPIRE_KEY));
    return Number.isFinite(value) && value > 0 ? value : undefined;
  },
  start(token: string, expire: string): void {
    sessionStorage.setItem(TOKEN_KEY, token);
    const at = Date.parse(expire);
    if (Number.isFinite(at)) sessionStorage.setItem(EXPIRE_KEY, String(at));
    else sessionStorage.removeItem(EXPIRE_KEY);
  },
  end(): void {
    sessionStorage.removeItem(TOKEN_KEY);
    sessionStorage.removeItem(EXPIRE_KEY);
  },
  /** The last username typed on the login page, to fill it in again. */
  lastUsername(): string {
    return sessionStorage.getItem(USERNAME_KEY) ?? '';
  },
  rememberUsername(username: string): void {
    sessionStorage.setItem(USERNAME_KEY, username);
  },
};
