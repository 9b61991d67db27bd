import type { Credential } from '../service/credential';
import type { SessionGate } from './session';

/** The two roles of the service; the spec derives them from the super-admin flag. */
export const ROLES = ['USER', 'SUPER_ADMIN'] as const;
export type Role = (typeof ROLES)[number];

/** `@role(guest)` marks a route that needs no token (login, sign-up, docs, health…). */
export const GUEST = 'guest';

export const roleOf = (isSuperAdmin: boolean): Role => (isSuperAdmin ? 'SUPER_ADMIN' : 'USER');

/** The logged-in user a request or RPC call acts for. */
export interface Principal {
  id: string;
  username: string;
  role: Role;
  /** Holds the answer until the token's session is known to be current (session.ts). */
  session?: SessionGate;
  /**
   * How the caller proved who they are: a login token, or an API key (api-key.ts). A route
   * declared `@credential(kind)` refuses the other kind (authorize.ts).
   */
  credential?: Credential;
  /** The API key the caller acts through (credential `key`): usage and the audit trail name it. */
  keyId?: string;
}
