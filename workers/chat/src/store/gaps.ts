import { and, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { gapQuestions, messages, type GapKindName } from '../db/schema';
import type { ChatDb } from '../call';

/**
 * The statements of the gap report. All run under the row-level security policies of
 * db/schema.ts: the asker inserts a question for the collections they read; the collections'
 * editors and owners read, resolve and delete them. Nothing here names a user.
 */
type Queries = ChatDb['db'];

/**
 * The latest questions a report groups. Postgres compares every pair (similarPairs), so the cost
 * grows with the square: measured on PGlite (WASM, the dev stack, a busy 2-core machine) with
 * 1,536-dimension vectors, 200 questions took 0.84 s, 300 took 3.0 s, 1,000 took 27 s. 300 keeps
 * the page usable locally and is a long backlog for an office; older open questions wait until
 * newer ones are resolved.
 */
export const REPORT_QUESTIONS = 300;

/** The caller's standing in a collection, as the policies decide it (kbchat_collections). */
export const collectionStanding = (db: Queries, collectionId: string) =>
  db.execute<{ reads: boolean; keeps: boolean }>(sql`select
    ${collectionId}::uuid = any((select kbchat_collections('viewer'))::uuid[]) as reads,
    ${collectionId}::uuid = any((select kbchat_collections('editor'))::uuid[]) as keeps`);

const inReport = (collectionId: string, withResolved: boolean): SQL =>
  withResolved
    ? sql`${collectionId}::uuid = any(${gapQuestions.collectionIds})`
    : and(
        sql`${collectionId}::uuid = any(${gapQuestions.collectionIds})`,
        isNull(gapQuestions.resolvedAt),
      )!;

/** The report's questions, newest first, without their vectors (see similarPairs). */
export const reportQuestions = (db: Queries, collectionId: string, withResolved: boolean) =>
  db
    .select({
      id: gapQuestions.id,
      kind: gapQuestions.kind,
      question: gapQuestions.question,
      bestSimilarity: gapQuestions.bestSimilarity,
      closest: gapQuestions.closest,
      createdAt: gapQuestions.createdAt,
      resolvedAt: gapQuestions.resolvedAt,
    })
    .from(gapQuestions)
    .where(inReport(collectionId, withResolved))
    .orderBy(desc(gapQuestions.createdAt), desc(gapQuestions.id))
    .limit(REPORT_QUESTIONS);

/**
 * The pairs of the same questions at least `threshold` similar, made by the same embedding
 * model (vectors of different models do not compare). Computed by Postgres next to the vectors:
 * only the pairs travel, not REPORT_QUESTIONS vectors of up to 1,536 numbers each.
 */
export const similarPairs = (
  db: Queries,
  collectionId: string,
  withResolved: boolean,
  threshold: number,
) =>
  db.execute<{ a: string | number; b: string | number }>(sql`
    with recent as (
      select ${gapQuestions.id} as id, ${gapQuestions.embedding} as embedding,
             ${gapQuestions.embeddingModel} as model
      from ${gapQuestions}
      where ${inReport(collectionId, withResolved)}
      order by ${gapQuestions.createdAt} desc, ${gapQuestions.id} desc
      limit ${REPORT_QUESTIONS}
    )
    select x.id as a, y.id as b from recent x join recent y
      on x.id < y.id and x.model = y.model
    where (x.embedding <=> y.embedding) <= ${1 - threshold}`);

/** Of `ids`, those the collections the caller reads hold: what a question may be filed under. */
export const readableOf = (db: Queries, ids: readonly string[]) =>
  db.execute<{ id: string }>(sql`
    select unnest(${`{${ids.join(',')}}`}::uuid[]) as id
    intersect select unnest((select kbchat_collections('viewer'))::uuid[])`);

export interface NewGap {
  collectionIds: string[];
  kind: GapKindName;
  question: string;
  messageId: string;
  bestSimilarity: number | null;
  closest: unknown[];
  embedding: number[];
  embeddingModel: string;
}

// No RETURNING: the asker may be a viewer, who files a question but may not read it back.
export const insertGap = (db: Queries, gap: NewGap) => db.insert(gapQuestions).values(gap);

/** A mark taken back takes its question out of the report (its collections' keepers may). */
export const deleteUnhelpfulGap = (db: Queries, messageId: string) =>
  db
    .delete(gapQuestions)
    .where(and(eq(gapQuestions.messageId, messageId), eq(gapQuestions.kind, 'unhelpful')));

export const resolveGaps = (db: Queries, ids: readonly number[], resolved: boolean) =>
  db
    .update(gapQuestions)
    .set(
      resolved
        ? { resolvedAt: sql`now()`, resolvedBy: sql`kbchat_user()` }
        : { resolvedAt: null, resolvedBy: null },
    )
    .where(inArray(gapQuestions.id, [...ids]))
    .returning({ id: gapQuestions.id });

/** The turn a feedback mark is about, as the gap report files it (the caller's own turn). */
export const turnForGap = (db: Queries, messageId: string) =>
  db
    .select({
      retrievalQuestion: messages.retrievalQuestion,
      sources: messages.sources,
      collectionIds: sql<
        string[] | null
      >`(select c.collection_ids from conversations c where c.id = ${messages.conversationId})`,
    })
    .from(messages)
    .where(and(eq(messages.id, messageId), eq(messages.userId, sql`kbchat_user()`)));
