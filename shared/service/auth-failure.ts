import { AppError } from '../errors/app-error';
import { errorDetail } from '../errors/catalogue';

/**
 * The two refusals of the spec's role middleware (section 5), whose bodies are fixed plain
 * text: 401 `Unauthorised` and 403 `Access denied`. They are AppErrors so that RPC and logs
 * see a status and a stable code (`unauthenticated`, `permission_denied`, the gRPC names of
 * section 7); routes mounted by mountService answer them as plain text, not problem JSON.
 * Why a caller was refused (no token, bad signature, wrong role) goes in `reason`, for the
 * log only: the wire only ever says the fixed text.
 */
export class AuthError extends AppError {
  readonly reason: string | undefined;

  constructor(status: 401 | 403, reason?: string) {
    const unauthenticated = status === 401;
    super(unauthenticated ? 'unauthenticated' : 'permission_denied', {
      headers: unauthenticated ? { 'WWW-Authenticate': 'Bearer' } : undefined,
    });
    this.name = 'AuthError';
    this.reason = reason;
  }
}

export const UNAUTHORISED_TEXT = errorDetail('unauthenticated');
export const ACCESS_DENIED_TEXT = errorDetail('permission_denied');

/** Missing, malformed, expired or unknown credential. */
export const unauthorised = (reason?: string) => new AuthError(401, reason);

/** A known caller whose role is not among the route's `@role` parameters. */
export const accessDenied = (reason?: string) => new AuthError(403, reason);

/** The fixed plain-text answer for an AuthError, for middleware outside mountService too. */
export function authFailureResponse(error: AuthError): Response {
  return new Response(error.message, {
    status: error.status,
    headers: { 'Content-Type': 'text/plain; charset=UTF-8', ...error.headers },
  });
}

export const unauthorisedResponse = () => authFailureResponse(unauthorised());
export const accessDeniedResponse = () => authFailureResponse(accessDenied());
