import { and, cosineDistance, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { answerSettings, gapQuestions, officialAnswers } from '../db/schema';
import type * as schema from '../db/schema';

/**
 * The statements of official answers (标准口径) and a collection's answer settings. All run
 * under the row-level security policies of db/schema.ts: the collection's readers read them
 * (chat matches their questions against them), its owners write them. Nothing here decides
 * access; `collectionStanding` only tells a missing collection (404) from a refused one (403).
 */
type Queries = PgDatabase<PgQueryResultHKT, typeof schema>;

/** The default threshold of a collection without settings (answer_settings' column default). */
export const DEFAULT_OFFICIAL_THRESHOLD = 0.9;

/** Official answers a question is compared with at most: the nearest few, enough for thresholds that differ per collection. */
export const MATCH_CANDIDATES = 3;

/** The caller's standing in a collection, as the policies decide it (kbchat_collections). */
export const collectionStanding = (db: Queries, collectionId: string) =>
  db.execute<{ reads: boolean; owns: boolean }>(sql`select
    ${collectionId}::uuid = any((select kbchat_collections('viewer'))::uuid[]) as reads,
    ${collectionId}::uuid = any((select kbchat_collections('owner'))::uuid[]) as owns`);

/** collectionStanding's row, from what `run` or `batch` gave back for it (typed loosely there). */
export const standingIn = (result: unknown) =>
  (result as { rows: { reads: boolean; owns: boolean }[] }).rows[0];

const answerColumns = {
  id: officialAnswers.id,
  collectionId: officialAnswers.collectionId,
  question: officialAnswers.question,
  answer: officialAnswers.answer,
  citations: officialAnswers.citations,
  createdByName: officialAnswers.createdByName,
  updatedByName: officialAnswers.updatedByName,
  createdAt: officialAnswers.createdAt,
  updatedAt: officialAnswers.updatedAt,
};

export type OfficialRow = {
  id: string;
  collectionId: string;
  question: string;
  answer: string;
  citations: unknown;
  createdByName: string;
  updatedByName: string;
  createdAt: Date;
  updatedAt: Date;
};

export const officialAnswersOf = (db: Queries, collectionId: string) =>
  db
    .select(answerColumns)
    .from(officialAnswers)
    .where(eq(officialAnswers.collectionId, collectionId))
    .orderBy(desc(officialAnswers.updatedAt), desc(officialAnswers.id));

/** An official answer's collection, if the caller reads it. */
export const officialAnswerById = (db: Queries, id: string) =>
  db
    .select({ id: officialAnswers.id, collectionId: officialAnswers.collectionId })
    .from(officialAnswers)
    .where(eq(officialAnswers.id, id));

export interface OfficialWrite {
  /** A new answer's id, chosen beforehand so that its record can name it in the same batch. */
  id?: string;
  collectionId: string;
  question: string;
  answer: string;
  citations: unknown[];
  embedding: number[];
  embeddingModel: string;
  userId: string;
  userName: string;
}

export const insertOfficialAnswer = (db: Queries, row: OfficialWrite) =>
  db
    .insert(officialAnswers)
    .values({
      ...(row.id ? { id: row.id } : {}),
      collectionId: row.collectionId,
      question: row.question,
      answer: row.answer,
      citations: row.citations,
      embedding: row.embedding,
      embeddingModel: row.embeddingModel,
      createdBy: row.userId,
      createdByName: row.userName,
      updatedByName: row.userName,
    })
    .returning(answerColumns);

/** Changes an official answer of the collection named (a row of another returns nothing). */
export const updateOfficialAnswer = (db: Queries, id: string, row: OfficialWrite) =>
  db
    .update(officialAnswers)
    .set({
      question: row.question,
      answer: row.answer,
      citations: row.citations,
      embedding: row.embedding,
      embeddingModel: row.embeddingModel,
      updatedByName: row.userName,
      updatedAt: sql`now()`,
    })
    .where(and(eq(officialAnswers.id, id), eq(officialAnswers.collectionId, row.collectionId)))
    .returning(answerColumns);

export const deleteOfficialAnswer = (db: Queries, id: string) =>
  db
    .delete(officialAnswers)
    .where(eq(officialAnswers.id, id))
    .returning({ id: officialAnswers.id });

/** Marks gap-report questions resolved (the keepers' policy decides which the caller may). */
export const resolveGapQuestions = (db: Queries, ids: number[], userId: string) =>
  db
    .update(gapQuestions)
    .set({ resolvedAt: sql`now()`, resolvedBy: userId })
    .where(and(inArray(gapQuestions.id, ids), isNull(gapQuestions.resolvedAt)));

export const answerSettingsOf = (db: Queries, collectionId: string) =>
  db
    .select({ officialThreshold: answerSettings.officialThreshold })
    .from(answerSettings)
    .where(eq(answerSettings.collectionId, collectionId));

export const upsertAnswerSettings = (
  db: Queries,
  collectionId: string,
  officialThreshold: number,
  userId: string,
) =>
  db
    .insert(answerSettings)
    .values({ collectionId, officialThreshold, updatedBy: userId })
    .onConflictDoUpdate({
      target: answerSettings.collectionId,
      set: { officialThreshold, updatedBy: userId, updatedAt: sql`now()` },
    })
    .returning({ officialThreshold: answerSettings.officialThreshold });

/** An official answer as chat matches it: what it gives, and its collection's threshold. */
const candidateColumns = () => ({
  id: officialAnswers.id,
  collectionId: officialAnswers.collectionId,
  question: officialAnswers.question,
  answer: officialAnswers.answer,
  citations: officialAnswers.citations,
  threshold:
    sql<number>`coalesce(${answerSettings.officialThreshold}, ${DEFAULT_OFFICIAL_THRESHOLD})`.mapWith(
      Number,
    ),
});

/**
 * The official answers nearest to a question's embedding among those the caller reads (in the
 * collections named, else all), made by the same embedding model, each with its collection's
 * threshold. Exact search: a collection holds tens of official answers, not thousands.
 */
export const nearestOfficialAnswers = (
  db: Queries,
  embedding: number[],
  embeddingModel: string,
  collectionIds: string[] | undefined,
) => {
  const distance = cosineDistance(officialAnswers.embedding, embedding);
  return db
    .select({
      ...candidateColumns(),
      similarity: sql<number>`1 - (${distance})`.mapWith(Number),
    })
    .from(officialAnswers)
    .leftJoin(answerSettings, eq(answerSettings.collectionId, officialAnswers.collectionId))
    .where(
      and(
        eq(officialAnswers.embeddingModel, embeddingModel),
        collectionIds ? inArray(officialAnswers.collectionId, collectionIds) : undefined,
      ),
    )
    .orderBy(distance)
    .limit(MATCH_CANDIDATES);
};

/**
 * The official answers the caller reads (in the collections named, else all) whose question was
 * embedded by another model than `embeddingModel`, with their collection's threshold: after a
 * change of model, nearestOfficialAnswers cannot compare them until they are embedded again.
 */
export const staleOfficialAnswers = (
  db: Queries,
  embeddingModel: string,
  collectionIds: string[] | undefined,
  limit: number,
) =>
  db
    .select(candidateColumns())
    .from(officialAnswers)
    .leftJoin(answerSettings, eq(answerSettings.collectionId, officialAnswers.collectionId))
    .where(
      and(
        ne(officialAnswers.embeddingModel, embeddingModel),
        collectionIds ? inArray(officialAnswers.collectionId, collectionIds) : undefined,
      ),
    )
    .orderBy(officialAnswers.id)
    .limit(limit);

/**
 * Stores the vectors of official answers made by the configured model in place of another's
 * (kbchat_official_reembedded: it changes only rows still of another model with the same question).
 */
export const storeReembeddedOfficial = (
  db: Queries,
  embeddingModel: string,
  rows: readonly { id: string; question: string; embedding: number[] }[],
) =>
  db.execute<{ changed: number }>(
    sql`select kbchat_official_reembedded(${embeddingModel}, ${JSON.stringify(rows)}::jsonb) as changed`,
  );
