import { is, SQL, sql } from 'drizzle-orm';
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
  /** What else is worth keeping; SQL when the statement reads it (a row as it was before a change). */
  detail?: Record<string, unknown> | SQL;
  /**
   * Only record when this holds in the batch, where the record stands: e.g. the object exists
   * (before a delete, after an insert), so that a change that found nothing records nothing.
   */
  when?: SQL;
}

/**
 * What a handler says of a record: who, what, how it ended, and plain details. The worker's
 * store/audit.ts names the object and the condition under which it is written.
 */
export type AuditRecord = Omit<AuditEvent, 'object' | 'when' | 'detail'> & {
  detail?: Record<string, unknown>;
};

/** The actor of a call made by a logged-in user (or their API key). */
export const actorOf = (principal: Principal, address?: string | null): AuditActor => ({
  id: principal.id,
  name: principal.username,
  keyId: principal.keyId ?? null,
  address: address ?? null,
});

/** A value given as text, or read by a query in the statement. */
const textOrQuery = (value: string | SQL | null) =>
  typeof value === 'string' || value === null ? sql`${value}::text` : sql`(${value})::text`;

/**
 * The statement that appends an event: put it in the same batch as the action it records, so
 * that the record and the change are written together or not at all. Only a worker's
 * store/audit.ts builds it (its `recorded`): handlers say what happened, the store how it is
 * written.
 */
export function auditSql(event: AuditEvent): SQL {
  const { actor, object, detail } = event;
  return sql`select kbchat_audit(
    ${event.action}, ${event.outcome ?? 'ok'},
    ${actor.id ?? null}::uuid, ${actor.name ?? null}, ${actor.keyId ?? null}::uuid, ${actor.address ?? null},
    ${object?.type ?? null}, ${object?.id ?? null}, ${textOrQuery(object?.label ?? null)},
    ${is(detail, SQL) ? sql`(${detail})` : sql`${JSON.stringify(detail ?? {})}::jsonb`}
  )${event.when ? sql` where ${event.when}` : sql``}`;
}
