import type { TokenVerification } from '../config/token-config';
import { authService } from '../contracts/auth';
import { AuthError, rpcClient, type RpcBindingOf } from '../service';
import { createAuthorize } from './authorize';
import { ROLES, type Principal, type Role } from './roles';

/**
 * The check for workers other than auth: the token is verified locally with the public keys,
 * then auth is asked over its service binding (GetMe, with the same token) who the user is
 * now — so a disabled or deleted user's still-valid token is refused everywhere, and the role
 * is the current one.
 */
export function authorizeViaAuth<Bindings extends { AUTH: RpcBindingOf<typeof authService> }>(
  verification: (env: Bindings) => TokenVerification,
) {
  return createAuthorize<Bindings>({
    verification,
    currentUser: async (access, _claims, token) => {
      const auth = rpcClient(authService, access.env.AUTH, { identity: { token } });
      try {
        const user = await auth.GetMe();
        if (!ROLES.includes(user.role as Role)) return undefined;
        const principal: Principal = {
          id: user.id,
          username: user.username,
          role: user.role as Role,
        };
        return principal;
      } catch (err) {
        if (err instanceof AuthError && err.status === 401) return undefined;
        throw err;
      }
    },
  });
}
