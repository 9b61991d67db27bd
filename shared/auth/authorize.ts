import type { Context } from 'hono';
import { accessDenied, unauthorised, type AccessRequest, type Authorize } from '../service';
import type { TokenVerification } from '../config/token-config';
import { AppError } from '../errors/app-error';
import { apiKeyHash, isApiKey } from './api-key';
import { importVerificationKeys, type VerificationKey } from './keys';
import { GUEST, roleOf, type Principal } from './roles';
import { SessionGate, type SessionClaim } from './session';
import { verifyToken } from './verify-token';

/** What a caller hands over a service binding so the callee can check it (RPC `identity`). */
export interface RpcIdentity {
  token: string;
}

export interface AuthorizeOptions<Bindings> {
  verification: (env: Bindings) => TokenVerification;
  /**
   * The explicit check that a token's session is current (the user exists, is not disabled,
   * and their sessions have not been ended since the token was issued); throws 401 if not.
   * Runs only when no statement of the call made the check already (see SessionGate).
   */
  checkSession: (
    access: AccessRequest<Bindings>,
    claim: SessionClaim,
    token: string,
  ) => Promise<void>;
  /** Start that check at once, to overlap the call's own work (a worker without a database). */
  eager?: boolean;
  /**
   * Finds an API key's user by the key's hash, as they are now (kbchat_key_session); throws
   * 401 for a key that is unknown or revoked, or whose user is disabled or deleted.
   */
  resolveKey: (access: AccessRequest<Bindings>, hash: string) => Promise<KeyUser>;
}

/** An API key's user as the key lookup finds them. */
export interface KeyUser {
  id: string;
  username: string;
  is_super_admin: boolean;
  /** The user's session epoch now: the call's later statements check it as a token's. */
  session_epoch: number;
  /** The key's own id. */
  key_id: string;
}

/**
 * The check every worker applies (spec section 5), deny by default: every route needs a valid
 * token unless its annotations say `@role(guest)`; a route with `@role(...)` also needs one of
 * those roles. The token comes from `Authorization: Bearer …`, else the form value `t` (query
 * string or form body). Refusals are the spec's plain-text 401 `Unauthorised` / 403
 * `Access denied`; the reason goes to the log only.
 *
 * The token is a login token (a JWT) or an API key (api-key.ts). A key is looked up at once
 * (the lookup is its session check), and only from the header: never from `t`, since URLs end
 * up in logs and histories, and a key, unlike a login token, does not expire.
 *
 * A route declared `@credential(login)` (identity administration) refuses an API key, and one
 * declared `@credential(key)` (the OpenAI-compatible door) a login token: 403 problem JSON,
 * `login_required` / `api_key_required`, after the role check. Over RPC the same: the identity
 * is the caller's own bearer token, passed on, so a key stays a key across a service binding.
 *
 * The token is verified here (signature, claims); whether its session is still current is
 * settled before the call answers, by the SessionGate on the principal. The role in a valid
 * token is current: changing a role ends the user's sessions.
 */
export function createAuthorize<Bindings>(
  options: AuthorizeOptions<Bindings>,
): Authorize<Bindings, Principal> {
  return async (access: AccessRequest<Bindings>) => {
    if (access.roles?.includes(GUEST)) return undefined;
    const token = await tokenOf(access);
    if (!token) throw unauthorised('missing token');
    const user = isApiKey(token)
      ? await keyPrincipal(options, access, token)
      : await tokenPrincipal(options, access, token);
    if (access.roles && !access.roles.includes(user.role)) {
      // The spec's order: a token that does not stand (an ended session) is 401 before 403.
      await user.session?.ensure();
      throw accessDenied(`role ${user.role} not in ${access.roles.join(',')}`);
    }
    if (access.credential && user.credential !== access.credential) {
      await user.session?.ensure();
      throw new AppError(access.credential === 'login' ? 'login_required' : 'api_key_required');
    }
    return user;
  };
}

/** A login token: verified here; its session is settled before the call answers. */
async function tokenPrincipal<Bindings>(
  options: AuthorizeOptions<Bindings>,
  access: AccessRequest<Bindings>,
  token: string,
): Promise<Principal> {
  const settings = options.verification(access.env);
  const checked = await verifyToken(token, {
    issuer: settings.issuer,
    audience: settings.audience,
    keys: await verificationKeys(settings.publicKeys),
    maxLifetimeSeconds: settings.maxLifetimeSeconds,
  });
  if (!checked.ok) throw unauthorised(checked.reason);
  const session = new SessionGate(checked.claim, () =>
    options.checkSession(access, checked.claim, token),
  );
  if (options.eager) session.start();
  return { ...checked.principal, session, credential: 'login' };
}

/**
 * An API key: its user as they are now, with a session already confirmed (the lookup was the
 * check). The call's later statement batches check that session (user, epoch, role) as they
 * do a token's, so a key revoked or a user disabled meanwhile is refused by them too.
 */
async function keyPrincipal<Bindings>(
  options: AuthorizeOptions<Bindings>,
  access: AccessRequest<Bindings>,
  key: string,
): Promise<Principal> {
  const found = await options.resolveKey(access, await apiKeyHash(key));
  const role = roleOf(found.is_super_admin);
  const claim: SessionClaim = { userId: found.id, epoch: found.session_epoch, role };
  const session = new SessionGate(claim, () => options.checkSession(access, claim, key));
  session.confirm();
  return {
    id: found.id,
    username: found.username,
    role,
    session,
    credential: 'key',
    keyId: found.key_id,
  };
}

/** The bearer token of the request that is being served, to pass on over RPC. */
export async function tokenOf(access: Pick<AccessRequest<unknown>, 'caller'>): Promise<string> {
  const { caller } = access;
  if (caller.transport === 'rpc') {
    const identity = caller.identity as Partial<RpcIdentity> | undefined;
    return typeof identity?.token === 'string' ? identity.token : '';
  }
  return tokenFromRequest(caller.context);
}

async function tokenFromRequest(c: Context): Promise<string> {
  const header = c.req.header('Authorization') ?? '';
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
  if (bearer) return bearer;
  return notAKey(await formToken(c));
}

async function formToken(c: Context): Promise<string> {
  const fromQuery = c.req.query('t');
  if (fromQuery) return fromQuery;
  const type = c.req.header('Content-Type') ?? '';
  if (/^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(type)) {
    const body = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    if (typeof body.t === 'string') return body.t;
  }
  return '';
}

// An API key is accepted only in the Authorization header: in `t` it counts as no token.
const notAKey = (token: string) => (isApiKey(token) ? '' : token);

// Importing keys costs a little; the same JWKS text always gives the same keys.
const keyCache = new Map<string, Promise<VerificationKey[]>>();
function verificationKeys(jwks: string): Promise<VerificationKey[]> {
  let keys = keyCache.get(jwks);
  if (!keys) {
    keys = importVerificationKeys(jwks).catch((err: unknown) => {
      throw new AppError('configuration_invalid', {
        detail: `Configuration invalid: AUTH_PUBLIC_KEYS: ${(err as Error).message}`,
      });
    });
    keyCache.set(jwks, keys);
    keys.catch(() => keyCache.delete(jwks));
  }
  return keys;
}
