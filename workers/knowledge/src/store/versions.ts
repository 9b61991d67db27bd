import { and, desc, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import { files, type FileRow } from '../db/schema';
import { METADATA_COLUMNS, type MetadataValues } from './document-metadata';
import type { Queries } from './files';

/**
 * A file's versions (`upload?replaces=`). Every version of a document carries the first one's
 * id as `lineage_id` (the first carries null: its own id), counts `version` up and names the
 * version it replaces. The version searched is the ready one nobody superseded; a new version
 * supersedes the one it replaces in the transaction that makes it ready (readyAndSwap).
 */

/** The id every version of this file shares. */
export const lineageRoot = (row: { id: string; lineageId: string | null }) =>
  row.lineageId ?? row.id;

/** Every version of a document the caller can read, newest first. */
export const versionsOf = (db: Queries, root: string) =>
  db
    .select()
    .from(files)
    .where(or(eq(files.id, root), eq(files.lineageId, root)))
    .orderBy(desc(files.version), desc(files.createdAt));

/** The one a search uses: ready, and not superseded by a newer (or restored) version. */
export const isCurrent = (row: FileRow) => row.status === 'ready' && row.supersededBy === null;

export const isOnItsWay = (row: FileRow) => row.status === 'queued' || row.status === 'processing';

/**
 * The fields a person set on the old version (metadata_origin `person`), for the new one: the
 * ingestion never overwrites a person's value, and extracts the others afresh.
 */
export function personMetadata(old: FileRow): Partial<FileRow> {
  const carried: Record<string, unknown> = {};
  const origin: Record<string, 'person'> = {};
  for (const [field, key] of Object.entries(METADATA_COLUMNS)) {
    if (old.metadataOrigin[field] !== 'person') continue;
    carried[key] = old[key as keyof MetadataValues];
    origin[field] = 'person';
  }
  return { ...carried, metadataOrigin: origin } as Partial<FileRow>;
}

/**
 * Makes `targetId` the version searched at once: the one current now is superseded by it. Two
 * statements for one batch (one transaction): no moment with neither or both current.
 */
export const restoreStatements = (db: Queries, root: string, targetId: string) =>
  [
    db
      .update(files)
      .set({ supersededBy: targetId, supersededAt: sql`now()` })
      .where(
        and(
          or(eq(files.id, root), eq(files.lineageId, root)),
          ne(files.id, targetId),
          eq(files.status, 'ready'),
          isNull(files.supersededBy),
        ),
      ),
    db
      .update(files)
      .set({ supersededBy: null, supersededAt: null })
      .where(eq(files.id, targetId))
      .returning(),
  ] as const;

/**
 * Before a version is deleted, its history is kept whole: the current version's deletion
 * makes the versions it superseded current again (the previous ready one, as before it came),
 * and a new version on its way then replaces that one; an older version's deletion hands the
 * versions it superseded on to its own successor.
 */
export function unlinkStatements(db: Queries, row: FileRow) {
  if (row.status !== 'ready') return [];
  const root = lineageRoot(row);
  const sameLineage = or(eq(files.id, root), eq(files.lineageId, root));
  if (row.supersededBy === null) {
    return [
      db
        .update(files)
        .set({ supersededBy: null, supersededAt: null })
        .where(and(sameLineage, eq(files.supersededBy, row.id))),
      db
        .update(files)
        .set({
          replacesId: sql`(select p.id from files p where p.superseded_by is null and p.status = 'ready' and p.id <> ${row.id} and (p.id = ${root} or p.lineage_id = ${root}) order by p.version desc limit 1)`,
        })
        .where(and(eq(files.replacesId, row.id), inArray(files.status, ['queued', 'processing']))),
    ];
  }
  return [
    db
      .update(files)
      .set({ supersededBy: row.supersededBy })
      .where(and(sameLineage, eq(files.supersededBy, row.id))),
  ];
}

/** Failed attempts at a new version (never searched): a newer upload takes their place. */
export const failedAttempts = (db: Queries, root: string, keep: string[]) =>
  db
    .select()
    .from(files)
    .where(
      and(
        eq(files.lineageId, root),
        eq(files.status, 'failed'),
        isNull(files.supersededBy),
        sql`${files.id} <> all(${sql.param(keep)}::uuid[])`,
      ),
    );

/**
 * The statements of the transaction that makes a new version ready, around `ready` (the file's
 * progress set to ready): the version it replaces is superseded in the same transaction.
 *
 * The ingestion acts for one file (kbchat_ingest), so the row-level security policies let it
 * see and write that file's row alone. The first statement notes, while it still sees the new
 * version, which file it replaces, and only when this transaction is the one that makes it
 * ready (a retried step after the swap swaps nothing); the third makes the transaction act for
 * that file, which the fourth supersedes. Nothing after them touches the new version.
 */
export function readyAndSwap<S>(db: Queries, fileId: string, ready: S) {
  return [
    db.execute(
      sql`select set_config('kbchat.replaces', coalesce((select f.replaces_id::text from files f where f.id = ${fileId} and f.status <> 'ready'), ''), true)`,
    ),
    ready,
    db.execute(
      sql`select set_config('kbchat.ingest_file', current_setting('kbchat.replaces', true), true)`,
    ),
    db
      .update(files)
      .set({ supersededBy: fileId, supersededAt: sql`now()` })
      .where(
        and(
          sql`${files.id} = nullif(current_setting('kbchat.replaces', true), '')::uuid`,
          isNull(files.supersededBy),
        ),
      ),
  ] as const;
}
