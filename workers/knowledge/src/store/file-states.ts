import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import { collections, files } from '../db/schema';
import type { Queries } from './files';

// What a file cited before has become (handlers/file-states.ts), read under the caller's
// row-level security: a file or collection they can no longer read is not found.

/** The asked files the caller can read, whatever their version or status. */
export const filesAsked = (db: Queries, ids: string[]) =>
  db
    .select({
      id: files.id,
      lineageId: files.lineageId,
      supersededBy: files.supersededBy,
      supersededAt: files.supersededAt,
      version: files.version,
    })
    .from(files)
    .where(inArray(files.id, ids));

/** Of these collections, those the caller can read. */
export const collectionsReadable = (db: Queries, ids: string[]) =>
  db.select({ id: collections.id }).from(collections).where(inArray(collections.id, ids));

/** The version searched now of each of these lineages (by their first version's id). */
export const currentVersionsOf = (db: Queries, roots: string[]) =>
  db
    .select({
      id: files.id,
      lineageId: files.lineageId,
      name: files.name,
      version: files.version,
    })
    .from(files)
    .where(
      and(
        or(inArray(files.id, roots), inArray(files.lineageId, roots)),
        eq(files.status, 'ready'),
        isNull(files.supersededBy),
      ),
    );
