import type { AuditEvent } from '#shared/audit/record';
import { verifyToken } from '#shared/auth/verify-token';
import { AppError } from '#shared/errors/app-error';
import { isErrorCode } from '#shared/errors/catalogue';
import { authConfig, type SsoSettings } from '../config';
import { authDb, clientAddress, type AuthCall } from '../call';
import { signingKey, verificationKeys } from '../identity/keys';
import { issueToken } from '../identity/tokens';
import { newBrowserBinding, setAttemptCookie, takeBrowserBinding } from '../sso/attempt-cookie';
import { setHandoff, takeHandoff } from '../sso/handoff';
import { RecordedRefusal, signInUser } from '../sso/sign-in';
import { authorizationUrl, completeSignIn, newAttempt, reasonOf, refusalOf } from '../sso/provider';
import { recordRefusal, savingAttempt, takeAttempt } from '../store/sso';

const CALLBACK_PATH = '/moduleauth/sso/callback';
/** The web app's route that collects the outcome (web/src/login/sso-page.tsx). */
const APP_ROUTE = '/#/sso';
/** A hash route of the web app to go back to afterwards; nothing else is followed. */
const RETURN_TO = /^#\/[\w\-/.~%=&?]*$/;

/** How the login page offers to sign in. */
export async function signInOptions(_: unknown, ctx: AuthCall) {
  const config = authConfig(ctx.env);
  const sso = config.sso;
  return {
    password: config.passwords,
    signup: config.passwords && config.signup,
    sso: sso ? { label: sso.label, start_url: '/moduleauth/sso/start' } : null,
  };
}

function ssoSettings(ctx: AuthCall): SsoSettings {
  const sso = authConfig(ctx.env).sso;
  if (!sso) throw new AppError('sso_off');
  return sso;
}

/** Where the provider sends the browser back: configured, or this service's own callback. */
function redirectUri(ctx: AuthCall, sso: SsoSettings): string {
  return sso.redirectUri ?? new URL(CALLBACK_PATH, ctx.http!.req.url).href;
}

/**
 * Starts a sign-in: a fresh state, nonce and PKCE verifier kept in oidc_logins with the hash of
 * the browser's attempt cookie (sso/attempt-cookie.ts) and the client's address, and the
 * browser sent to the provider. The provider's metadata is fetched first, so that an
 * unreachable provider leaves nothing behind; a refused start (sso_busy) sets no cookie.
 */
export async function ssoStart({ return_to }: { return_to?: string }, ctx: AuthCall) {
  const sso = ssoSettings(ctx);
  const attempt = newAttempt();
  const location = await authorizationUrl(sso, attempt, redirectUri(ctx, sso));
  const adb = authDb(ctx);
  const returnTo = return_to !== undefined && RETURN_TO.test(return_to) ? return_to : null;
  const browser = await newBrowserBinding();
  const address = clientAddress(ctx);
  const [, saved] = await adb.batch(
    savingAttempt(
      adb,
      { ...attempt, returnTo, browserHash: browser.hash, address },
      sso.maxPending,
    ),
  );
  if (saved.rows.length === 0) throw new AppError('sso_busy');
  setAttemptCookie(ctx.http!, browser.value);
  return { location };
}

/**
 * The provider's return. The attempt its state names is taken (deleted) first, and only by the
 * browser that started it (its attempt cookie, cleared here): a state completes once, and a
 * callback URL carried to another browser signs no one in there; the code is exchanged and the ID token checked; the user is matched or
 * created and a login token issued. Success or refusal, the browser goes back to the web app,
 * which collects the outcome with PostSsoSession: nothing of it is ever in a URL. Every outcome
 * is recorded (auth.sso_login), a success in the same batch as the user's change.
 */
export async function ssoCallback(
  params: { code?: string; state?: string; error?: string; iss?: string },
  ctx: AuthCall,
) {
  const sso = ssoSettings(ctx);
  const adb = authDb(ctx);
  const address = clientAddress(ctx);
  let returnTo: string | null = null;
  // The state of a callback that named no sign-in of this browser (see recordRefusal).
  let unknownState: string | undefined;
  try {
    const browser = await takeBrowserBinding(ctx.http!);
    const attempt =
      params.state && browser.length > 0
        ? await takeAttempt(adb, params.state, browser)
        : undefined;
    if (!attempt) unknownState = params.state ?? '';
    if (!attempt || !attempt.fresh) {
      throw new AppError('sso_expired', {
        detail: attempt
          ? 'The sign-in took too long.'
          : browser.length === 0
            ? 'No attempt cookie: the sign-in was not started in this browser.'
            : 'Unknown or used state, or one started in another browser.',
      });
    }
    returnTo = attempt.returnTo;
    const claims = await completeSignIn(
      sso,
      attempt,
      new URL(ctx.http!.req.url),
      redirectUri(ctx, sso),
    );
    const config = authConfig(ctx.env);
    const user = await signInUser(adb, sso, claims, address, {
      signupOpen: config.passwords && config.signup,
    });
    const login = await issueToken(
      user,
      await signingKey(config.signing.privateKey),
      config.signing,
    );
    setHandoff(ctx.http!, login);
  } catch (err) {
    const refusal = refusalOf(err);
    ctx.log.info('single sign-on refused', { code: refusal.code, reason: reasonOf(refusal) });
    // A refusal of who signed in (disabled, unknown) was recorded with their name already.
    if (!(err instanceof RecordedRefusal)) {
      await recordRefusal(adb, failure(refusal, address, sso.issuer), unknownState);
    }
    setHandoff(ctx.http!, { error: refusal.code });
  }
  const then = returnTo ? `?to=${encodeURIComponent(returnTo)}` : '';
  return { location: `${APP_ROUTE}${then}` };
}

function failure(refusal: AppError, address: string, issuer: string): AuditEvent {
  return {
    action: 'auth.sso_login',
    outcome: refusal.code === 'sso_refused' ? 'denied' : 'failed',
    actor: { address },
    detail: { reason: reasonOf(refusal), issuer },
  };
}

/**
 * The web app collects the outcome the callback left in the handoff cookie (cleared here): the
 * login token, checked again as any token is (a cookie planted by another site must not log
 * anyone in), or the refusal as a catalogue error.
 */
export async function ssoSession(_: unknown, ctx: AuthCall) {
  const handoff = takeHandoff(ctx.http!);
  if (!handoff) throw new AppError('sso_nothing_waiting');
  if ('error' in handoff) {
    const code = handoff.error;
    throw new AppError(code.startsWith('sso_') && isErrorCode(code) ? code : 'sso_nothing_waiting');
  }
  const { verification } = authConfig(ctx.env);
  const check = await verifyToken(handoff.token, {
    issuer: verification.issuer,
    audience: verification.audience,
    keys: await verificationKeys(verification.publicKeys),
    maxLifetimeSeconds: verification.maxLifetimeSeconds,
  });
  if (!check.ok) throw new AppError('sso_nothing_waiting');
  return handoff;
}
