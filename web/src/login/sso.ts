import type { Api, User } from '../api/services';
import { session } from '../session';

/** The route the auth worker's callback sends the browser back to (handlers/sso.ts). */
const SSO_ROUTE = /^#\/sso(?:\?(.*))?$/;
/** A hash route of the app, to go back to after signing in; nothing else is followed. */
const APP_ROUTE = /^#\/[\w\-/.~%=&?]*$/;

/** Where the single sign-on button goes: the start route, bringing the user back here after. */
export function ssoStartHref(startUrl: string, hash: string): string {
  return APP_ROUTE.test(hash) && !SSO_ROUTE.test(hash)
    ? `${startUrl}?return_to=${encodeURIComponent(hash)}`
    : startUrl;
}

/** The browser is back from the provider: the app's address is `#/sso`. */
export const backFromSso = (hash: string): boolean => SSO_ROUTE.test(hash);

/** The route to show after signing in: the one the sign-in started from, or the start page. */
export function routeAfterSso(hash: string): string {
  const to = new URLSearchParams(SSO_ROUTE.exec(hash)?.[1] ?? '').get('to') ?? '';
  return APP_ROUTE.test(to) ? to : '';
}

/**
 * Collects what the callback left for this browser (PostSsoSession: the login token, or the
 * refusal, which the call throws as a failure with its catalogue code) and starts the session.
 * The address loses `#/sso` either way, so a reload does not try again.
 */
export async function collectSso(api: Api): Promise<User> {
  const next = routeAfterSso(location.hash);
  history.replaceState(null, '', location.pathname + next);
  const login = await api.auth.PostSsoSession();
  session.start(login.token, login.expire);
  return api.auth.GetMe();
}
