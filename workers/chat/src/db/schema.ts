import { sql } from 'drizzle-orm';
import {
  check,
  index,
  jsonb,
  pgPolicy,
  pgRole,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

// The workers' role (migration 0009); declared in knowledge's schema, referred to here by name.
const appRole = pgRole('kbchat_app').existing();

// Each helper is a scalar subquery, so Postgres runs it once per statement, not once per row.
const actingUser = sql`(select kbchat_user())`;
const actingSuperAdmin = sql`(select current_setting('kbchat.role', true)) = 'SUPER_ADMIN'`;

/** How an answer ended: streamed whole, cut off (the client went away), refused, or failed. */
export const MESSAGE_STATUSES = ['complete', 'incomplete', 'refused', 'failed'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const FEEDBACK_RATINGS = ['helpful', 'unhelpful'] as const;
export type FeedbackRating = (typeof FEEDBACK_RATINGS)[number];

/**
 * A user's conversation: its turns are `messages`. Row-level security keeps it its user's alone
 * (another user's id finds nothing: 404). Deleting the user deletes it (foreign key, 0013).
 */
export const conversations = pgTable(
  'conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .default(sql`kbchat_user()`),
    title: text('title').notNull(),
    /** The chat's scope as the first question set it: chosen files, or chosen collections. */
    fileIds: uuid('file_ids').array(),
    collectionIds: uuid('collection_ids').array(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Moved on by every new turn: the list is newest first by it. */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('conversations_user_updated_idx').on(t.userId, t.updatedAt.desc(), t.id.desc()),
    pgPolicy('conversations_own', {
      for: 'all',
      to: appRole,
      using: sql`${t.userId} = ${actingUser}`,
      withCheck: sql`${t.userId} = ${actingUser}`,
    }),
  ],
).enableRLS();

/**
 * One turn: the question, the question retrieval was asked (rewritten from the conversation for a
 * follow-up), the answer with its sources and usage, and the user's feedback on it.
 */
export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .default(sql`kbchat_user()`),
    question: text('question').notNull(),
    /** The standalone question retrieval searched for; the question itself for a first turn. */
    retrievalQuestion: text('retrieval_question').notNull(),
    answer: text('answer').notNull().default(''),
    status: text('status').$type<MessageStatus>().notNull(),
    /** The chat's stable error code for `refused` and `failed` turns. */
    errorCode: text('error_code'),
    /** ChatSource[] as the stream's `sources` event told them. */
    sources: jsonb('sources').notNull().default([]),
    /** The model's token usage, when it reported it. */
    usage: jsonb('usage'),
    /** SentenceSupport[]: each sentence of a complete answer checked against its sources. */
    support: jsonb('support'),
    /** The model that answered (CHAT_MODEL), for the record of what was told on what basis. */
    model: text('model'),
    mode: text('mode'),
    language: text('language').notNull(),
    feedback: text('feedback').$type<FeedbackRating>(),
    feedbackComment: text('feedback_comment'),
    feedbackAt: timestamp('feedback_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('messages_conversation_created_idx').on(t.conversationId, t.createdAt),
    index('messages_unhelpful_idx')
      .on(t.feedbackAt.desc())
      .where(sql`${t.feedback} = 'unhelpful'`),
    check(
      'messages_status_check',
      sql`${t.status} in ('complete', 'incomplete', 'refused', 'failed')`,
    ),
    check('messages_feedback_check', sql`${t.feedback} in ('helpful', 'unhelpful')`),
    pgPolicy('messages_own', {
      for: 'all',
      to: appRole,
      using: sql`${t.userId} = ${actingUser}`,
      // A turn goes into one of the user's own conversations only.
      withCheck: sql`${t.userId} = ${actingUser} and ${t.conversationId} in (select id from conversations)`,
    }),
    // Marking an answer unhelpful shares it with the administrators who review answers (the web
    // app says so): a SUPER_ADMIN reads those turns, and nothing else of anyone's conversations.
    pgPolicy('messages_review', {
      for: 'select',
      to: appRole,
      using: sql`${t.feedback} = 'unhelpful' and ${actingSuperAdmin}`,
    }),
  ],
).enableRLS();

export type Conversation = typeof conversations.$inferSelect;
export type Message = typeof messages.$inferSelect;
