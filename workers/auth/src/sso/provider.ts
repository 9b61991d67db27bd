import * as oauth from 'oauth4webapi';
import { AppError } from '#shared/errors/app-error';
import { errorDetail, isErrorCode } from '#shared/errors/catalogue';
import type { SsoSettings } from '../config';

/**
 * The OpenID Connect client side, on oauth4webapi: the provider's metadata (discovery), the
 * authorization request, and the callback's checks — the `iss` and `state` parameters, the code
 * exchange with the PKCE verifier, and the ID token's issuer, audience, expiry, nonce and
 * signature (against the provider's published keys). Every refusal is an AppError of the
 * catalogue; nothing here writes anything.
 */

/** What the callback needs from the attempt it belongs to (one oidc_logins row). */
export interface LoginAttempt {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The ID token's claims, as the provider signed them. */
export type IdClaims = oauth.IDToken;

// Per isolate: a provider's metadata and keys are fetched once, and again after a failure
// (a key the cache does not know makes oauth4webapi fetch the key set again by itself).
const servers = new Map<string, Promise<oauth.AuthorizationServer>>();
const keySets = new Map<string, oauth.JWKSCacheInput>();

/**
 * Plain http is refused except to this machine (the local identity provider of `npm run dev`
 * and the tests): a token exchanged in the clear could be read on the way.
 */
function requestOptions(settings: SsoSettings) {
  const host = new URL(settings.issuer).hostname;
  const loopback = host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
  return {
    [oauth.allowInsecureRequests]: loopback,
    signal: AbortSignal.timeout(10_000),
  };
}

export function authorizationServer(settings: SsoSettings): Promise<oauth.AuthorizationServer> {
  let server = servers.get(settings.issuer);
  if (!server) {
    const issuer = new URL(settings.issuer);
    server = oauth
      .discoveryRequest(issuer, { ...requestOptions(settings), algorithm: 'oidc' })
      .then((response) => oauth.processDiscoveryResponse(issuer, response));
    servers.set(settings.issuer, server);
    server.catch(() => servers.delete(settings.issuer));
  }
  return server.catch((err: unknown) => {
    throw new AppError('sso_unavailable', { cause: err });
  });
}

const clientOf = (settings: SsoSettings): oauth.Client => ({ client_id: settings.clientId });

const clientAuthOf = (settings: SsoSettings): oauth.ClientAuth =>
  settings.clientSecret ? oauth.ClientSecretBasic(settings.clientSecret) : oauth.None();

/** A fresh attempt: its state, nonce and PKCE verifier (each 32 random bytes). */
export function newAttempt(): LoginAttempt {
  return {
    state: oauth.generateRandomState(),
    nonce: oauth.generateRandomNonce(),
    codeVerifier: oauth.generateRandomCodeVerifier(),
  };
}

/** Where to send the browser: the provider's authorization endpoint with the attempt's values. */
export async function authorizationUrl(
  settings: SsoSettings,
  attempt: LoginAttempt,
  redirectUri: string,
): Promise<string> {
  const server = await authorizationServer(settings);
  if (!server.authorization_endpoint) {
    throw new AppError('sso_unavailable', {
      detail: 'The provider names no authorization endpoint.',
    });
  }
  const url = new URL(server.authorization_endpoint);
  url.search = new URLSearchParams({
    client_id: settings.clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: settings.scopes,
    state: attempt.state,
    nonce: attempt.nonce,
    code_challenge: await oauth.calculatePKCECodeChallenge(attempt.codeVerifier),
    code_challenge_method: 'S256',
  }).toString();
  return url.href;
}

/**
 * The callback's checks and the code exchange; answers the ID token's claims. `callback` is the
 * URL the provider sent the browser to (its query: code, state, iss or error).
 */
export async function completeSignIn(
  settings: SsoSettings,
  attempt: LoginAttempt,
  callback: URL,
  redirectUri: string,
): Promise<IdClaims> {
  const server = await authorizationServer(settings);
  const client = clientOf(settings);
  const options = { ...requestOptions(settings), [oauth.jwksCache]: keySetOf(settings) };
  try {
    const params = oauth.validateAuthResponse(server, client, callback, attempt.state);
    const response = await oauth.authorizationCodeGrantRequest(
      server,
      client,
      clientAuthOf(settings),
      params,
      redirectUri,
      attempt.codeVerifier,
      options,
    );
    const result = await oauth.processAuthorizationCodeResponse(server, client, response, {
      expectedNonce: attempt.nonce,
      requireIdToken: true,
    });
    // The token came straight from the provider over TLS, which OpenID Connect counts as enough;
    // its signature is checked all the same, so a token the provider's keys did not sign is
    // refused whatever the channel.
    await oauth.validateApplicationLevelSignature(server, response, options);
    const claims = oauth.getValidatedIdTokenClaims(result);
    if (!claims) throw new AppError('sso_invalid', { detail: 'The provider sent no ID token.' });
    return claims;
  } catch (err) {
    throw refusalOf(err);
  }
}

function keySetOf(settings: SsoSettings): oauth.JWKSCacheInput {
  let cache = keySets.get(settings.issuer);
  if (!cache) {
    cache = {};
    keySets.set(settings.issuer, cache);
  }
  return cache;
}

/** Why a sign-in was refused, as a catalogue error (the cause is kept for the log). */
export function refusalOf(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof oauth.AuthorizationResponseError) {
    // The provider's own answer (access_denied, login_required…): the user was not signed in.
    return new AppError('sso_refused', { cause: err });
  }
  if (err instanceof oauth.ResponseBodyError) {
    // invalid_grant: the code was used already or is too old at the provider.
    return new AppError(err.error === 'invalid_grant' ? 'sso_expired' : 'sso_invalid', {
      cause: err,
    });
  }
  if (
    err instanceof oauth.OperationProcessingError ||
    err instanceof oauth.UnsupportedOperationError
  ) {
    return new AppError('sso_invalid', { cause: err });
  }
  // A network failure or timeout on the way to the provider.
  return new AppError('sso_unavailable', { cause: err });
}

/** A short reason for the audit trail (never a token or a secret). */
export function reasonOf(err: AppError): string {
  const cause = err.cause;
  if (cause instanceof oauth.AuthorizationResponseError) return `provider: ${cause.error}`;
  if (cause instanceof oauth.ResponseBodyError) return `token endpoint: ${cause.error}`;
  if (cause instanceof Error) return `${err.code}: ${cause.message}`.slice(0, 300);
  // A refusal of this service's own that says more than the catalogue (e.g. why a state was
  // refused): that is the reason.
  if (isErrorCode(err.code) && err.message !== errorDetail(err.code)) {
    return `${err.code}: ${err.message}`.slice(0, 300);
  }
  return err.code;
}
