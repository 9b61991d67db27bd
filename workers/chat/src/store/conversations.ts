import { and, asc, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { conversations, messages, type FeedbackRating } from '../db/schema';
import type * as schema from '../db/schema';
import type { TurnOutcome } from '../answer/turn';

/**
 * The statements of conversations and their turns. Every one runs under the row-level security
 * policies of db/schema.ts: another user's conversation is simply not there (the handlers
 * answer 404), and no statement here names a user: the policies and column defaults take the
 * acting user from the session (kbchat_user()).
 */
type Queries = PgDatabase<PgQueryResultHKT, typeof schema>;

const conversationColumns = {
  id: conversations.id,
  title: conversations.title,
  fileIds: conversations.fileIds,
  collectionIds: conversations.collectionIds,
  createdAt: conversations.createdAt,
  updatedAt: conversations.updatedAt,
};

const messageColumns = {
  id: messages.id,
  question: messages.question,
  retrievalQuestion: messages.retrievalQuestion,
  answer: messages.answer,
  status: messages.status,
  errorCode: messages.errorCode,
  sources: messages.sources,
  usage: messages.usage,
  mode: messages.mode,
  language: messages.language,
  feedback: messages.feedback,
  feedbackComment: messages.feedbackComment,
  feedbackAt: messages.feedbackAt,
  createdAt: messages.createdAt,
  support: messages.support,
  model: messages.model,
};

export const conversationPage = (db: Queries, page: number, size: number) =>
  db
    .select(conversationColumns)
    .from(conversations)
    .orderBy(desc(conversations.updatedAt), desc(conversations.id))
    .limit(size)
    .offset((page - 1) * size);

export const conversationCount = (db: Queries) => db.select({ total: count() }).from(conversations);

export const conversationById = (db: Queries, id: string) =>
  db.select(conversationColumns).from(conversations).where(eq(conversations.id, id));

export const messagesOf = (db: Queries, conversationId: string) =>
  db
    .select(messageColumns)
    .from(messages)
    .where(eq(messages.conversationId, conversationId))
    .orderBy(asc(messages.createdAt), asc(messages.id));

/** The newest `limit` turns of a conversation, newest first: what a follow-up reads. */
export const recentMessagesOf = (db: Queries, conversationId: string, limit: number) =>
  db
    .select({
      question: messages.question,
      retrievalQuestion: messages.retrievalQuestion,
      answer: messages.answer,
      status: messages.status,
    })
    .from(messages)
    .where(eq(messages.conversationId, conversationId))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(limit);

export const renameConversation = (db: Queries, id: string, title: string) =>
  db
    .update(conversations)
    .set({ title })
    .where(eq(conversations.id, id))
    .returning(conversationColumns);

export const deleteConversation = (db: Queries, id: string) =>
  db.delete(conversations).where(eq(conversations.id, id)).returning({ id: conversations.id });

export interface TurnScope {
  fileIds: string[] | null;
  collectionIds: string[] | null;
}

export const insertConversation = (
  db: Queries,
  row: { id: string; title: string; createdAt: Date } & TurnScope,
) => db.insert(conversations).values({ ...row, updatedAt: row.createdAt });

/** A later turn moves the conversation up the list and sets its scope to the turn's. */
export const touchConversation = (db: Queries, id: string, scope: TurnScope) =>
  db
    .update(conversations)
    .set({ ...scope, updatedAt: sql`now()` })
    .where(eq(conversations.id, id));

export const insertTurn = (
  db: Queries,
  turn: {
    id: string;
    conversationId: string;
    question: string;
    retrievalQuestion: string;
    createdAt: Date;
    outcome: TurnOutcome;
    /** The chat model asked (CHAT_MODEL); null when the turn never reached it. */
    model: string | null;
  },
) =>
  db.insert(messages).values({
    id: turn.id,
    conversationId: turn.conversationId,
    question: turn.question,
    retrievalQuestion: turn.retrievalQuestion,
    answer: turn.outcome.answer,
    status: turn.outcome.status,
    errorCode: turn.outcome.code ?? null,
    sources: turn.outcome.sources,
    usage: turn.outcome.usage ?? null,
    mode: turn.outcome.mode ?? null,
    language: turn.outcome.language,
    support: turn.outcome.support ?? null,
    model: turn.model,
    // A refusal's nearest passages, for the reviewers of unhelpful answers.
    closest: turn.outcome.refusal?.candidates ?? null,
    createdAt: turn.createdAt,
  });

export const setFeedback = (
  db: Queries,
  messageId: string,
  feedback: { rating: FeedbackRating; comment: string | null } | null,
) =>
  db
    .update(messages)
    .set(
      feedback
        ? { feedback: feedback.rating, feedbackComment: feedback.comment, feedbackAt: sql`now()` }
        : { feedback: null, feedbackComment: null, feedbackAt: null },
    )
    // Only the user's own turns: a reviewer's policy lets a SUPER_ADMIN read others', not mark them.
    .where(and(eq(messages.id, messageId), eq(messages.userId, sql`kbchat_user()`)))
    .returning({
      feedback: messages.feedback,
      feedbackComment: messages.feedbackComment,
      feedbackAt: messages.feedbackAt,
    });

/** Unhelpful answers under review: open ones, or all of them (`withResolved`). */
const unhelpfulWhere = (withResolved: boolean) =>
  withResolved
    ? eq(messages.feedback, 'unhelpful')
    : and(eq(messages.feedback, 'unhelpful'), isNull(messages.reviewResolvedAt));

/** Answers marked unhelpful that the caller may read (a SUPER_ADMIN: everyone's), newest mark first. */
export const unhelpfulPage = (db: Queries, page: number, size: number, withResolved = false) =>
  db
    .select({
      ...messageColumns,
      conversationId: messages.conversationId,
      username: sql<string>`(select u.username from users u where u.id = ${messages.userId})`,
      closest: messages.closest,
      reviewResolvedAt: messages.reviewResolvedAt,
    })
    .from(messages)
    .where(unhelpfulWhere(withResolved))
    .orderBy(desc(messages.feedbackAt), desc(messages.id))
    .limit(size)
    .offset((page - 1) * size);

export const unhelpfulCount = (db: Queries, withResolved = false) =>
  db.select({ total: count() }).from(messages).where(unhelpfulWhere(withResolved));

/** A SUPER_ADMIN marks an unhelpful answer dealt with, or open again (the review columns only). */
export const resolveUnhelpful = (db: Queries, messageId: string, resolved: boolean) =>
  db
    .update(messages)
    .set(
      resolved
        ? { reviewResolvedAt: sql`now()`, reviewResolvedBy: sql`kbchat_user()` }
        : { reviewResolvedAt: null, reviewResolvedBy: null },
    )
    .where(and(eq(messages.id, messageId), eq(messages.feedback, 'unhelpful')))
    .returning({ id: messages.id });

/** A turn's feedback before it is changed (read in the same transaction as the change). */
export const feedbackOf = (db: Queries, messageId: string) =>
  db
    .select({ feedback: messages.feedback })
    .from(messages)
    .where(and(eq(messages.id, messageId), eq(messages.userId, sql`kbchat_user()`)));

export type MessageRow = Awaited<ReturnType<typeof messagesOf>>[number];
export type ConversationRow = Awaited<ReturnType<typeof conversationById>>[number];
