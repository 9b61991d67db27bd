import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { auditSql, type AuditEvent, type AuditRecord } from '#shared/audit/record';
import { answerSettings, conversations, officialAnswers } from '../db/schema';
import type { ChatDb } from '../call';

type Db = ChatDb['db'];

/** What a handler says of a record: the statement names the object and when it holds. */
export type Recorded = AuditRecord;

/**
 * The one way this worker writes an audit record: the statement, to put in the batch of the
 * change it records (written only when `event.when` holds where it stands in that batch).
 */
export const recorded = (db: Db, event: AuditEvent) => db.execute(auditSql(event));

/**
 * An official answer's record, labelled with its question, written only when the answer
 * exists (and `also` holds) where the statement stands in its batch: after its insert or
 * update, before its delete.
 */
export const officialRecorded = (db: Db, id: string, record: Recorded, also: SQL = sql`true`) =>
  recorded(db, {
    ...record,
    object: {
      type: 'official_answer',
      id,
      label: sql`select ${officialAnswers.question} from ${officialAnswers} where ${officialAnswers.id} = ${id}::uuid`,
    },
    when: sql`exists (select 1 from ${officialAnswers} where ${officialAnswers.id} = ${id}::uuid and ${also})`,
  });

/**
 * A collection's answer settings' record, labelled with the collection's name where the caller
 * reads it, written only when the settings row is there (after its upsert in the batch).
 */
export const collectionSettingsRecorded = (db: Db, collectionId: string, record: Recorded) =>
  recorded(db, {
    ...record,
    object: {
      type: 'collection',
      id: collectionId,
      label: sql`select c.name from collections c where c.id = ${collectionId}::uuid`,
    },
    when: sql`exists (select 1 from ${answerSettings} where ${answerSettings.collectionId} = ${collectionId}::uuid)`,
  });

/** A conversation's record (its export), labelled with its title; only one the caller sees. */
export const conversationRecorded = (db: Db, id: string, record: Recorded) =>
  recorded(db, {
    ...record,
    object: {
      type: 'conversation',
      id,
      label: sql`select ${conversations.title} from ${conversations} where ${conversations.id} = ${id}::uuid`,
    },
    when: sql`exists (select 1 from ${conversations} where ${conversations.id} = ${id}::uuid)`,
  });

/**
 * The limits' change and its record, one statement: `read` (the row as it is) and `change` (an
 * update answering the row as it leaves it) run as parts of it, so the record's detail holds
 * both, `{ before, after }`; an update that changed no row (only a super admin's session may)
 * records nothing. Put it after a statement that locks the row, so that "before" is the row
 * this change replaced and not one a concurrent change replaced already.
 */
export const limitsChangeRecorded = (
  db: Db,
  rows: { read: SQLWrapper; change: SQLWrapper },
  record: Recorded,
) =>
  db.execute(sql`with before as (${rows.read.getSQL()}), after as (${rows.change.getSQL()})
    ${auditSql({
      ...record,
      object: { type: 'limits', id: '1', label: 'usage_limits' },
      detail: sql`jsonb_build_object('before', (select to_jsonb(b) from before b),
        'after', (select to_jsonb(a) from after a))`,
      when: sql`exists (select 1 from after)`,
    })}`);

/** The answer as this write left it (a lost race or another collection's id records nothing). */
export const answerIs = (question: string, collectionId: string) =>
  sql`${officialAnswers.question} = ${question} and ${officialAnswers.collectionId} = ${collectionId}::uuid`;
