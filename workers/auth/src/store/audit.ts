import { and, count, desc, eq, gte, ilike, like, lt, or, sql, type SQL } from 'drizzle-orm';
import type { AuditOutcome } from '#shared/audit/actions';
import { auditSql, type AuditEvent, type AuditRecord } from '#shared/audit/record';
import { apiKeys, auditEvents, users } from '../db/schema';
import type { AuditFilter } from '../audit/filters';
import type { AuthDb } from './users';

/**
 * The one way this worker writes an audit record: the statement, to put in the batch of the
 * change it records (written only when `event.when` holds where it stands in that batch).
 * Handlers and the other stores call it, or the helpers below that name the object.
 */
export const recorded = (adb: AuthDb, event: AuditEvent) => adb.db.execute(auditSql(event));

/**
 * A user's record, labelled with their name as it is there, written only when the user
 * exists (and `also` holds) where the statement stands in its batch.
 */
export const userRecorded = (adb: AuthDb, id: string, record: AuditRecord, also: SQL = sql`true`) =>
  recorded(adb, {
    ...record,
    object: {
      type: 'user',
      id,
      label: sql`select ${users.username} from ${users} where ${users.id} = ${id}::uuid`,
    },
    when: sql`exists (select 1 from ${users} where ${users.id} = ${id}::uuid and ${also})`,
  });

/** An API key's record, labelled with its name, written only when the key (of `owner`) exists then. */
export function keyRecorded(
  adb: AuthDb,
  id: string,
  owner: string | undefined,
  record: AuditRecord,
) {
  const key =
    owner === undefined
      ? sql`${apiKeys.id} = ${id}::uuid`
      : sql`${apiKeys.id} = ${id}::uuid and ${apiKeys.userId} = ${owner}::uuid`;
  return recorded(adb, {
    ...record,
    object: {
      type: 'api_key',
      id,
      label: sql`select ${apiKeys.name} from ${apiKeys} where ${key}`,
    },
    when: sql`exists (select 1 from ${apiKeys} where ${key})`,
  });
}

/** One record as the audit screens and the export read it (the hash chain's fields kept out of the list). */
export interface AuditRow {
  id: number;
  at: Date;
  actorId: string | null;
  actorName: string | null;
  keyId: string | null;
  address: string | null;
  action: string;
  objectType: string | null;
  objectId: string | null;
  objectLabel: string | null;
  outcome: AuditOutcome;
  detail: unknown;
  hash: string;
}

const listed = {
  id: auditEvents.id,
  at: auditEvents.at,
  actorId: auditEvents.actorId,
  actorName: auditEvents.actorName,
  keyId: auditEvents.keyId,
  address: auditEvents.address,
  action: auditEvents.action,
  objectType: auditEvents.objectType,
  objectId: auditEvents.objectId,
  objectLabel: auditEvents.objectLabel,
  outcome: auditEvents.outcome,
  detail: auditEvents.detail,
  hash: auditEvents.hash,
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `%`, `_` and `\` typed into a filter are meant literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The filter as a WHERE clause (undefined: every record). */
function where(filter: AuditFilter): SQL | undefined {
  const parts: (SQL | undefined)[] = [];
  if (filter.actor !== undefined) {
    const byName = ilike(auditEvents.actorName, containing(filter.actor));
    parts.push(
      UUID.test(filter.actor) ? or(eq(auditEvents.actorId, filter.actor), byName) : byName,
    );
  }
  if (filter.action !== undefined) {
    parts.push(
      'exact' in filter.action
        ? eq(auditEvents.action, filter.action.exact)
        : like(auditEvents.action, `${filter.action.prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`),
    );
  }
  if (filter.object !== undefined) {
    parts.push(
      or(
        eq(auditEvents.objectId, filter.object),
        ilike(auditEvents.objectLabel, containing(filter.object)),
      ),
    );
  }
  if (filter.outcome !== undefined) parts.push(eq(auditEvents.outcome, filter.outcome));
  if (filter.from !== undefined) parts.push(gte(auditEvents.at, filter.from));
  if (filter.to !== undefined) parts.push(lt(auditEvents.at, filter.to));
  return and(...parts);
}

/**
 * A page of records, newest first, and how many match: one batch. Only a super admin's session
 * sees any (the audit_events_super_admin_read policy); the route lets no one else in.
 */
export async function auditPage(adb: AuthDb, filter: AuditFilter, page: number, size: number) {
  const [items, [total]] = await adb.batch([
    adb.db
      .select(listed)
      .from(auditEvents)
      .where(where(filter))
      .orderBy(desc(auditEvents.id))
      .limit(size)
      .offset((page - 1) * size),
    adb.db.select({ n: count() }).from(auditEvents).where(where(filter)),
  ]);
  return { items: items as AuditRow[], total: total?.n ?? 0 };
}

/**
 * The records older than `before` (an id; undefined: from the newest), newest first, at most
 * `size`: the export reads the trail this way, a page per round trip, so that no answer of
 * the database grows with the trail.
 */
export const auditRowsBefore = (
  adb: AuthDb,
  filter: AuditFilter,
  before: number | undefined,
  size: number,
) =>
  adb.db
    .select(listed)
    .from(auditEvents)
    .where(and(where(filter), before === undefined ? undefined : lt(auditEvents.id, before)))
    .orderBy(desc(auditEvents.id))
    .limit(size);

/** Today's prune (kbchat_audit_prune, migration 0028): how many records it removed, or null if it ran already. */
export const pruneAudit = (adb: AuthDb) =>
  adb.db.execute<{ removed: number | null }>(sql`select kbchat_audit_prune() as removed`);
