import { and, asc, eq, inArray, ne, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { fileRelations, files, type RelationKindName } from '../db/schema';
import type { Queries } from './files';
import { validityStatus } from './validity';

/**
 * How files relate, as each one sees it: its own relations (the documents it amends, repeals,
 * replaces or implements) and other files' relations that name it.
 *
 * A relation found in a document's text names the other by 文号 and/or title only: the
 * ingestion that finds it acts for one file and can read no other (the files_read policy), so
 * it cannot resolve them. They are resolved here, when read, among the files the reader can
 * read — the same rule validityStatus (validity.ts) applies: a file whose 文号 a relation names
 * is its target. A relation naming only a title resolves to a file with exactly that title.
 */

const other = alias(files, 'other');

/** The file a relation names, among those the reader can read: by id, 文号, else exact title. */
const resolvedTarget = (column: 'id' | 'name') => sql<string | null>`(
  select t.${sql.raw(column)} from files t
  where t.id <> ${fileRelations.fileId} and (
    t.id = ${fileRelations.targetFileId}
    or (${fileRelations.targetFileId} is null and ${fileRelations.targetDocNumber} is not null
        and t.doc_number = ${fileRelations.targetDocNumber})
    or (${fileRelations.targetFileId} is null and ${fileRelations.targetDocNumber} is null
        and t.title = ${fileRelations.targetTitle}))
  order by t.created_at desc limit 1)`;

/** The files' own relations, with the file each names where the reader can read one. */
export const ownRelations = (db: Queries, fileIds: string[]) =>
  db
    .select({
      id: fileRelations.id,
      fileId: fileRelations.fileId,
      relation: fileRelations.relation,
      origin: fileRelations.origin,
      docNumber: fileRelations.targetDocNumber,
      title: fileRelations.targetTitle,
      otherId: resolvedTarget('id'),
      otherName: resolvedTarget('name'),
    })
    .from(fileRelations)
    .where(inArray(fileRelations.fileId, fileIds))
    .orderBy(asc(fileRelations.id));

/**
 * Other readable files' relations that name these files: by id, or by 文号 when they name no
 * file (validityStatus's rule, so that what is listed is what made the status).
 */
export const relationsNaming = (db: Queries, fileIds: string[]) =>
  db
    .select({
      id: fileRelations.id,
      fileId: files.id,
      relation: fileRelations.relation,
      origin: fileRelations.origin,
      otherId: other.id,
      otherName: other.name,
      docNumber: other.docNumber,
      title: other.title,
    })
    .from(fileRelations)
    .innerJoin(
      files,
      and(
        inArray(files.id, fileIds),
        ne(fileRelations.fileId, files.id),
        or(
          eq(fileRelations.targetFileId, files.id),
          sql`(${fileRelations.targetFileId} is null and ${fileRelations.targetDocNumber} is not null and ${fileRelations.targetDocNumber} = ${files.docNumber})`,
        ),
      ),
    )
    .innerJoin(other, eq(other.id, fileRelations.fileId))
    .orderBy(asc(fileRelations.id));

/** Whether each file still holds (the one rule: validity.ts). */
export const validityStatuses = (db: Queries, fileIds: string[]) =>
  db
    .select({ id: files.id, status: validityStatus(files) })
    .from(files)
    .where(inArray(files.id, fileIds));

export const relationById = (db: Queries, id: number) =>
  db.select().from(fileRelations).where(eq(fileRelations.id, id)).limit(1);

/** A relation a person states (the file_relations_manage policy decides who may). */
export const insertPersonRelation = (
  db: Queries,
  row: {
    fileId: string;
    relation: RelationKindName;
    targetFileId: string | null;
    targetDocNumber: string | null;
    targetTitle: string | null;
    createdBy: string;
  },
) =>
  db
    .insert(fileRelations)
    .values({ ...row, origin: 'person' })
    .returning({ id: fileRelations.id });

export const deleteRelation = (db: Queries, id: number) =>
  db.delete(fileRelations).where(eq(fileRelations.id, id)).returning({ id: fileRelations.id });

/** Holds, after deleteRelation in its batch, when the relation is gone (its record's condition). */
export const relationGone = (id: number) =>
  sql`not exists (select 1 from ${fileRelations} where ${fileRelations.id} = ${id})`;

/**
 * The relations found in a file's text, in place of those found before (a re-ingest finds
 * them again); those a person stated stay. Run by the file's ingestion.
 */
export function replaceExtractedRelations(
  db: Queries,
  fileId: string,
  relations: readonly {
    relation: RelationKindName;
    doc_number: string | null;
    title: string | null;
  }[],
) {
  const clear = db
    .delete(fileRelations)
    .where(and(eq(fileRelations.fileId, fileId), eq(fileRelations.origin, 'extracted')));
  if (relations.length === 0) return [clear];
  return [
    clear,
    db.insert(fileRelations).values(
      relations.map((r) => ({
        fileId,
        relation: r.relation,
        targetDocNumber: r.doc_number,
        targetTitle: r.title,
        origin: 'extracted' as const,
      })),
    ),
  ];
}
