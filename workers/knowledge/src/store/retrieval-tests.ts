import { and, asc, eq } from 'drizzle-orm';
import { filePages, files, retrievalTests } from '../db/schema';
import type { Queries } from './files';

/**
 * The statements of a collection's saved retrieval questions. Each runs under the row-level
 * security policies of db/schema.ts (retrieval_tests): readers read, editors and owners insert
 * and delete; a row the caller may not touch is simply not there.
 */

const testColumns = {
  id: retrievalTests.id,
  collectionId: retrievalTests.collectionId,
  question: retrievalTests.question,
  fileId: retrievalTests.fileId,
  // The file may have been deleted since (the test keeps its id): then null.
  fileName: files.name,
  page: retrievalTests.page,
  // A section's heading, for formats without pages: a section's number means nothing to a reader.
  section: filePages.label,
  createdByName: retrievalTests.createdByName,
  createdAt: retrievalTests.createdAt,
};

export type RetrievalTestRow = {
  id: number;
  collectionId: string;
  question: string;
  fileId: string;
  fileName: string | null;
  page: number | null;
  section: string | null;
  createdByName: string;
  createdAt: Date;
};

const expectedPage = and(
  eq(filePages.fileId, retrievalTests.fileId),
  eq(filePages.page, retrievalTests.page),
);

/** A collection's saved questions, oldest first (the order they were written in). */
export const testsOf = (db: Queries, collectionId: string, limit?: number) => {
  const query = db
    .select(testColumns)
    .from(retrievalTests)
    .leftJoin(files, eq(files.id, retrievalTests.fileId))
    .leftJoin(filePages, expectedPage)
    .where(eq(retrievalTests.collectionId, collectionId))
    .orderBy(asc(retrievalTests.id));
  return limit === undefined ? query : query.limit(limit);
};

export const testById = (db: Queries, id: number) =>
  db
    .select(testColumns)
    .from(retrievalTests)
    .leftJoin(files, eq(files.id, retrievalTests.fileId))
    .leftJoin(filePages, expectedPage)
    .where(eq(retrievalTests.id, id))
    .limit(1);

export const insertTest = (
  db: Queries,
  row: {
    collectionId: string;
    question: string;
    fileId: string;
    page: number | null;
    createdBy: string;
    createdByName: string;
  },
) => db.insert(retrievalTests).values(row).returning({ id: retrievalTests.id });

export const deleteTest = (db: Queries, id: number) =>
  db.delete(retrievalTests).where(eq(retrievalTests.id, id)).returning({ id: retrievalTests.id });
