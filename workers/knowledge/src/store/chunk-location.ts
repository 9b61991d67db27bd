import { and, eq } from 'drizzle-orm';
import { chunks, collections, filePages, files } from '../db/schema';
import type { Queries } from './files';

/**
 * The document viewer's reads (handlers/viewer.ts). Row-level security answers only what the
 * caller may read, as for every file read: a passage or page of a file in a collection they
 * cannot read is not there. Only ready files are shown: a file being ingested has pages whose
 * chunks may not all be stored yet.
 */

/** A passage with its file and its page's size and lines; none when the caller cannot read it. */
export const chunkLocation = (db: Queries, id: number) =>
  db
    .select({
      id: chunks.id,
      fileId: chunks.fileId,
      fileName: files.name,
      format: files.format,
      collectionId: files.collectionId,
      collectionName: collections.name,
      page: chunks.page,
      pages: files.pages,
      text: chunks.content,
      charStart: chunks.charStart,
      charEnd: chunks.charEnd,
      headingPath: chunks.headingPath,
      section: filePages.label,
      textSource: filePages.source,
      width: filePages.width,
      height: filePages.height,
      lines: filePages.lines,
      editedAt: chunks.editedAt,
      enabled: chunks.enabled,
    })
    .from(chunks)
    .innerJoin(files, and(eq(files.id, chunks.fileId), eq(files.status, 'ready')))
    .leftJoin(collections, eq(collections.id, files.collectionId))
    .leftJoin(filePages, and(eq(filePages.fileId, chunks.fileId), eq(filePages.page, chunks.page)))
    .where(eq(chunks.id, id))
    .limit(1);

/** One page of a ready file the caller can read; none when there is no such page for them. */
export const filePage = (db: Queries, fileId: string, page: number) =>
  db
    .select({
      fileId: files.id,
      fileName: files.name,
      format: files.format,
      page: filePages.page,
      pages: files.pages,
      section: filePages.label,
      text: filePages.text,
      textSource: filePages.source,
      width: filePages.width,
      height: filePages.height,
    })
    .from(files)
    .innerJoin(filePages, and(eq(filePages.fileId, files.id), eq(filePages.page, page)))
    .where(and(eq(files.id, fileId), eq(files.status, 'ready')))
    .limit(1);
