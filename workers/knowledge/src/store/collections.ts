import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import {
  collectionMembers,
  collections,
  DEFAULT_COLLECTION_ID,
  files,
  type CollectionRole,
} from '../db/schema';
import type { KnowledgeDb, Queries } from './files';

/**
 * The statements of collections and their members. Every one runs under the row-level security
 * policies of db/schema.ts: a collection the caller may not read is simply not there, and a
 * change the caller may not make changes nothing. The handlers turn "not there" into 404.
 */

/** The caller's role in collection `id`, as the policies decide it (kbchat_collections). */
export const callerRole = (id: unknown) => sql<CollectionRole>`case
    when ${id} = any((select kbchat_collections('owner'))::uuid[]) then 'owner'
    when ${id} = any((select kbchat_collections('editor'))::uuid[]) then 'editor'
    else 'viewer' end`;

const collectionColumns = {
  id: collections.id,
  name: collections.name,
  description: collections.description,
  createdAt: collections.createdAt,
  role: callerRole(collections.id),
  // Written out: drizzle leaves a single-table select's columns unqualified, and an unqualified
  // "id" inside this subquery would be the file's. Current versions only, as the file list
  // shows them: an older version is in its file's history, not one more file.
  files: sql<number>`(select count(*)::int from files f
    where f.collection_id = collections.id and f.superseded_by is null)`,
};

export type CollectionView = {
  id: string;
  name: string;
  description: string;
  createdAt: Date;
  role: CollectionRole;
  files: number;
};

/** The collections the caller can read: the shared one first, then by name. */
export const readableCollections = (db: Queries) =>
  db
    .select(collectionColumns)
    .from(collections)
    .orderBy(sql`${collections.id} <> ${DEFAULT_COLLECTION_ID}::uuid`, asc(collections.name));

export const readableCollection = (db: Queries, id: string) =>
  db.select(collectionColumns).from(collections).where(eq(collections.id, id));

export const insertCollection = (
  db: Queries,
  row: { id: string; name: string; description: string; createdBy: string },
) => db.insert(collections).values(row);

export const updateCollection = (
  db: Queries,
  id: string,
  change: { name?: string; description?: string },
) =>
  db
    .update(collections)
    .set({ ...change, updatedAt: new Date() })
    .where(eq(collections.id, id))
    .returning({ id: collections.id });

export const deleteCollectionRow = (db: Queries, id: string) =>
  db.delete(collections).where(eq(collections.id, id)).returning({ id: collections.id });

/** The files of a collection, for stopping their ingests and removing their originals. */
export const filesIn = (db: Queries, id: string) =>
  db
    .select({ id: files.id, workflowId: files.workflowId, status: files.status })
    .from(files)
    .where(eq(files.collectionId, id));

export const membersOf = (db: Queries, id: string) =>
  db
    .select()
    .from(collectionMembers)
    .where(eq(collectionMembers.collectionId, id))
    .orderBy(asc(collectionMembers.username));

/** A user to add, by name: unknown and disabled users are not found. */
export const findUser = (db: KnowledgeDb['db'], username: string) =>
  db.execute<{ id: string; username: string }>(
    sql`select id, username from kbchat_find_user(${username})`,
  );

export const insertMember = (
  db: Queries,
  row: { collectionId: string; userId: string; username: string; role: CollectionRole },
) => db.insert(collectionMembers).values(row).onConflictDoNothing().returning();

const member = (collectionId: string, userId: string) =>
  and(eq(collectionMembers.collectionId, collectionId), eq(collectionMembers.userId, userId));

export const updateMember = (
  db: Queries,
  collectionId: string,
  userId: string,
  role: CollectionRole,
) => db.update(collectionMembers).set({ role }).where(member(collectionId, userId)).returning();

export const deleteMember = (db: Queries, collectionId: string, userId: string) =>
  db.delete(collectionMembers).where(member(collectionId, userId)).returning();

/** Which of these collections the caller can read (the policies decide). */
export const readableAmong = (db: Queries, ids: readonly string[]) =>
  db
    .select({ id: collections.id })
    .from(collections)
    .where(inArray(collections.id, [...ids]));
