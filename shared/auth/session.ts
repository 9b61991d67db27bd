import type { Role } from './roles';

/** What a token says of the session it belongs to, checked against the user as they are now. */
export interface SessionClaim {
  userId: string;
  /**
   * The user's session epoch when the token was issued. A password change or reset, a role
   * change, disabling the user and "log out everywhere" move the epoch on, which ends every
   * session (token) issued before.
   */
  epoch: number;
  /** The role the token claims; it must be the user's role now. */
  role: Role;
  /**
   * The token's own session (its `jti`), which a logout ends alone; absent for an API key's
   * session and for a token issued before tokens carried one.
   */
  sessionId?: string;
}

/**
 * Holds a call's answer until the token's session is known to be current: the user exists, is
 * not disabled, and nothing has ended their sessions since the token was issued.
 *
 * A worker with a database gets the check for free: every statement batch of the call carries
 * it (shared/db/request-db.ts) and confirms the gate. Otherwise — a worker without a database,
 * or a call that ran no statement — `ensure` runs the explicit `check` (auth's GetMe over RPC,
 * or one statement). `start` runs it at once, so that it overlaps the call's other work.
 */
export class SessionGate {
  readonly claim: SessionClaim;
  private readonly check: () => Promise<void>;
  private confirmed = false;
  private running: Promise<void> | undefined;

  constructor(claim: SessionClaim, check: () => Promise<void>) {
    this.claim = claim;
    this.check = check;
  }

  /** A statement that checked the session succeeded. */
  confirm(): void {
    this.confirmed = true;
  }

  /** Runs the explicit check now (once), without waiting for it. */
  start(): void {
    if (this.confirmed || this.running) return;
    this.running = this.check().then(() => this.confirm());
    this.running.catch(() => undefined); // observed by ensure()
  }

  /** Resolves when the session is known to be current; throws (401) when it is not. */
  async ensure(): Promise<void> {
    if (this.confirmed) return;
    this.start();
    await this.running;
  }
}

/** The `settle` hook of mountService and rpcEntrypoint: no answer before the session is known. */
export async function settleSession(principal: unknown): Promise<void> {
  await (principal as { session?: SessionGate } | undefined)?.session?.ensure();
}
