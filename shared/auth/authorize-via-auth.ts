import type { TokenVerification } from '../config/token-config';
import { authService } from '../contracts/auth';
import { rpcClient, type RpcBindingOf } from '../service';
import { createAuthorize } from './authorize';

/**
 * The check for a worker without a database of its own (chat): the token is verified locally
 * with the public keys, and whether its session is current is asked of auth over its service
 * binding (GetMe, with the same token: one statement there). The question is sent at once, so
 * it runs while the call does its own work; the answer waits for it.
 */
export function authorizeViaAuth<Bindings extends { AUTH: RpcBindingOf<typeof authService> }>(
  verification: (env: Bindings) => TokenVerification,
) {
  return createAuthorize<Bindings>({
    verification,
    eager: true,
    checkSession: async (access, _claim, token) => {
      await rpcClient(authService, access.env.AUTH, { identity: { token } }).GetMe();
    },
  });
}
