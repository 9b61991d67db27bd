import { sql, type SQL } from 'drizzle-orm';
import type { Principal } from '../auth/roles';
import type { AuditAction, AuditOutcome } from './actions';

/** Who acted: a user (through a key or not), or a name tried by nobody logged in. */
export interface AuditActor {
  id?: string | null;
  name?: string | null;
  keyId?: string | null;
  /** The client address the request came from. */
  address?: string | null;
}

/** One record for the audit trail (kbchat_audit, migration 0026). */
export interface AuditEvent {
  action: AuditAction;
  outcome?: AuditOutcome;
  actor: AuditActor;
  /** The object acted on; its label may be read in the statement (a name before a delete). */
  object?: { type: string; id?: string | null; label?: string | SQL | null };
  detail?: Record<string, unknown>;
  /**
   * Only record when this holds in the batch, where the record stands: e.g. the object exists
   * (before a delete, after an insert), so that a change that found nothing records nothing.
   */
  when?: SQL;
}

/** The actor of a call made by a logged-in user (or their API key). */
export const actorOf = (principal: Principal, address?: string | null): AuditActor => ({
  id: principal.id,
  name: principal.username,
  keyId: principal.keyId ?? null,
  address: address ?? null,
});

/**
 * The statement that appends an event: put it in the same batch as the action it records, so
 * that the record and the change are written together or not at all.
 */
export function auditSql(event: AuditEvent): SQL {
  const { actor, object } = event;
  const label = object?.label ?? null;
  return sql`select kbchat_audit(
    ${event.action}, ${event.outcome ?? 'ok'},
    ${actor.id ?? null}::uuid, ${actor.name ?? null}, ${actor.keyId ?? null}::uuid, ${actor.address ?? null},
    ${object?.type ?? null}, ${object?.id ?? null}, ${typeof label === 'string' || label === null ? sql`${label}::text` : sql`(${label})::text`},
    ${JSON.stringify(event.detail ?? {})}::jsonb
  )${event.when ? sql` where ${event.when}` : sql``}`;
}
