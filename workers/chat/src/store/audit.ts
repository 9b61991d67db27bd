import { sql, type SQL } from 'drizzle-orm';
import { auditSql, type AuditEvent } from '#shared/audit/record';
import { conversations, officialAnswers } from '../db/schema';
import type { ChatDb } from '../call';

type Db = ChatDb['db'];

/** What a handler says of a record: the statement names the object and when it holds. */
export type Recorded = Omit<AuditEvent, 'object' | 'when'>;

/**
 * An official answer's record, labelled with its question, written only when the answer
 * exists (and `also` holds) where the statement stands in its batch: after its insert or
 * update, before its delete.
 */
export const officialRecorded = (db: Db, id: string, record: Recorded, also: SQL = sql`true`) =>
  db.execute(
    auditSql({
      ...record,
      object: {
        type: 'official_answer',
        id,
        label: sql`select ${officialAnswers.question} from ${officialAnswers} where ${officialAnswers.id} = ${id}::uuid`,
      },
      when: sql`exists (select 1 from ${officialAnswers} where ${officialAnswers.id} = ${id}::uuid and ${also})`,
    }),
  );

/** A conversation's record (its export), labelled with its title; only one the caller sees. */
export const conversationRecorded = (db: Db, id: string, record: Recorded) =>
  db.execute(
    auditSql({
      ...record,
      object: {
        type: 'conversation',
        id,
        label: sql`select ${conversations.title} from ${conversations} where ${conversations.id} = ${id}::uuid`,
      },
      when: sql`exists (select 1 from ${conversations} where ${conversations.id} = ${id}::uuid)`,
    }),
  );

/** A record with no condition (the gap report's export, once the report was read). */
export const recorded = (db: Db, event: AuditEvent) => db.execute(auditSql(event));

/** The answer as this write left it (a lost race or another collection's id records nothing). */
export const answerIs = (question: string, collectionId: string) =>
  sql`${officialAnswers.question} = ${question} and ${officialAnswers.collectionId} = ${collectionId}::uuid`;
