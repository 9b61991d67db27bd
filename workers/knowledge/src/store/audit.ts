import { sql, type SQL } from 'drizzle-orm';
import { auditSql, type AuditEvent, type AuditRecord } from '#shared/audit/record';
import {
  chunks,
  collectionMembers,
  collections,
  filePages,
  files,
  reindexJobs,
} from '../db/schema';
import type { KnowledgeDb } from './files';

type Db = KnowledgeDb['db'];

/** What a handler says of a record: the statement names the object and when it holds. */
export type Recorded = AuditRecord;

/**
 * The one way this worker writes an audit record: the statement, to put in the batch of the
 * change it records (written only when `event.when` holds where it stands in that batch).
 * Handlers call the helpers below, which name the object.
 */
export const recorded = (db: Db, event: AuditEvent) => db.execute(auditSql(event));

/** A collection as the object of a record, labelled with its name as it is there. */
const collectionObject = (id: string) => ({
  type: 'collection',
  id,
  label: sql`select ${collections.name} from ${collections} where ${collections.id} = ${id}::uuid`,
});

/**
 * A file's record, written only when the file exists (and `also` holds) where the statement
 * stands in its batch: before a delete (its name still there to read) or after an insert.
 */
export const fileRecorded = (db: Db, id: string, record: Recorded, also: SQL = sql`true`) =>
  recorded(db, {
    ...record,
    object: {
      type: 'file',
      id,
      label: sql`select ${files.name} from ${files} where ${files.id} = ${id}::uuid`,
    },
    when: sql`exists (select 1 from ${files} where ${files.id} = ${id}::uuid and ${also})`,
  });

/**
 * A passage's record, labelled with its file's name; where it stands (its page, and a section's
 * heading for formats without pages) goes in the detail as data, for the reader's language to
 * word, never as English words in the label.
 */
export const chunkRecorded = (db: Db, id: number, record: Recorded, also: SQL = sql`true`) =>
  recorded(db, {
    ...record,
    object: {
      type: 'chunk',
      id: String(id),
      label: sql`select ${files.name} from ${chunks}
          join ${files} on ${files.id} = ${chunks.fileId} where ${chunks.id} = ${id}`,
    },
    detail: sql`select ${JSON.stringify(record.detail ?? {})}::jsonb
          || jsonb_build_object('page', ${chunks.page}, 'section', ${filePages.label})
        from ${chunks} left join ${filePages}
          on ${filePages.fileId} = ${chunks.fileId} and ${filePages.page} = ${chunks.page}
        where ${chunks.id} = ${id}`,
    when: sql`exists (select 1 from ${chunks} where ${chunks.id} = ${id} and ${also})`,
  });

/** A collection's record, labelled with its name. */
export const collectionRecorded = (db: Db, id: string, record: Recorded) =>
  recorded(db, {
    ...record,
    object: collectionObject(id),
    when: sql`exists (select 1 from ${collections} where ${collections.id} = ${id}::uuid)`,
  });

/**
 * A membership's record: the object is the collection, the member in the detail. `fresh`:
 * only a membership added in this transaction counts (an insert that met an existing member
 * inserted nothing; created_at defaults to the transaction's now()).
 */
export const memberRecorded = (
  db: Db,
  collectionId: string,
  userId: string,
  record: Recorded,
  options: { fresh?: boolean; role?: string } = {},
) => {
  const member = sql`${collectionMembers.collectionId} = ${collectionId}::uuid and ${collectionMembers.userId} = ${userId}::uuid`;
  const fresh = options.fresh ? sql` and ${collectionMembers.createdAt} = now()` : sql``;
  const role = options.role ? sql` and ${collectionMembers.role} = ${options.role}` : sql``;
  return recorded(db, {
    ...record,
    object: collectionObject(collectionId),
    detail: { ...record.detail, member_id: userId },
    when: sql`exists (select 1 from ${collectionMembers} where ${member}${fresh}${role})`,
  });
};

/** Conditions on the row the record stands after. */
export const fileIn = (collectionId: string) => sql`${files.collectionId} = ${collectionId}::uuid`;
export const fileEnabled = (enabled: boolean) => sql`${files.enabled} = ${enabled}`;
export const chunkEnabled = (enabled: boolean) => sql`${chunks.enabled} = ${enabled}`;
export const chunkText = (text: string) => sql`${chunks.content} = ${text}`;

/** A re-index's record, written when its job was inserted (another start's job records nothing). */
export const reindexRecorded = (
  db: Db,
  jobId: string,
  collectionId: string | null,
  record: Recorded,
) =>
  recorded(db, {
    ...record,
    object: collectionId
      ? collectionObject(collectionId)
      : { type: 'collection', id: null, label: 'all collections' },
    detail: { ...record.detail, job_id: jobId },
    when: sql`exists (select 1 from ${reindexJobs} where ${reindexJobs.id} = ${jobId}::uuid)`,
  });
