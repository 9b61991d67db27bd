import { EMBEDDING_COLUMN_DIMENSIONS } from '#shared/model/embedding-width';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  integer,
  index,
  jsonb,
  pgPolicy,
  pgRole,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uuid,
  vector,
} from 'drizzle-orm/pg-core';

// The workers' role (migration 0009); declared in knowledge's schema, referred to here by name.
const appRole = pgRole('kbchat_app').existing();

// Each helper is a scalar subquery, so Postgres runs it once per statement, not once per row.
const actingUser = sql`(select kbchat_user())`;
const actingSuperAdmin = sql`(select current_setting('kbchat.role', true)) = 'SUPER_ADMIN'`;
// The collections the acting user holds a role in, at least `min` (migration 0009's helper).
const collectionsWhere = (min: 'viewer' | 'editor' | 'owner') =>
  sql`(select kbchat_collections(${sql.raw(`'${min}'`)}))::uuid[]`;

export { EMBEDDING_COLUMN_DIMENSIONS };

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
    /** For a refusal: the passages closest to the question (ChatSource[]), for the reviewers. */
    closest: jsonb('closest'),
    /** A SUPER_ADMIN marked the unhelpful answer dealt with. */
    reviewResolvedAt: timestamp('review_resolved_at', { withTimezone: true }),
    reviewResolvedBy: uuid('review_resolved_by'),
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
    // …and marks them dealt with (the handler writes the review columns only).
    pgPolicy('messages_review_resolve', {
      for: 'update',
      to: appRole,
      using: sql`${t.feedback} = 'unhelpful' and ${actingSuperAdmin}`,
      withCheck: sql`${t.feedback} = 'unhelpful' and ${actingSuperAdmin}`,
    }),
  ],
).enableRLS();

/**
 * An official answer (标准口径) of a collection: written or approved by its owners, given as
 * written to a question similar enough to its own (answer_settings), with no model call. Its
 * question's embedding is made by the configured model (`embeddingModel`, `name@dimensions`);
 * one made by another is not compared. Readable by the collection's readers (chat matches their
 * questions against it); written by its owners.
 */
export const officialAnswers = pgTable(
  'official_answers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    collectionId: uuid('collection_id').notNull(),
    question: text('question').notNull(),
    answer: text('answer').notNull(),
    /** OfficialCitation[]: the passages it cites, as sources tell them. */
    citations: jsonb('citations').notNull().default([]),
    embedding: vector('embedding', { dimensions: EMBEDDING_COLUMN_DIMENSIONS }).notNull(),
    embeddingModel: text('embedding_model').notNull(),
    createdBy: uuid('created_by').notNull(),
    createdByName: text('created_by_name').notNull(),
    updatedByName: text('updated_by_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('official_answers_collection_idx').on(t.collectionId, t.updatedAt.desc()),
    pgPolicy('official_answers_read', {
      for: 'select',
      to: appRole,
      using: sql`${t.collectionId} = any(${collectionsWhere('viewer')})`,
    }),
    pgPolicy('official_answers_write', {
      for: 'all',
      to: appRole,
      using: sql`${t.collectionId} = any(${collectionsWhere('owner')})`,
      withCheck: sql`${t.collectionId} = any(${collectionsWhere('owner')})`,
    }),
  ],
).enableRLS();

/** How a collection's answers are given; a collection without a row has the defaults. */
export const answerSettings = pgTable(
  'answer_settings',
  {
    collectionId: uuid('collection_id').primaryKey(),
    officialThreshold: real('official_threshold').notNull().default(0.9),
    updatedBy: uuid('updated_by').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('answer_settings_threshold_check', sql`${t.officialThreshold} between 0.5 and 1`),
    pgPolicy('answer_settings_read', {
      for: 'select',
      to: appRole,
      using: sql`${t.collectionId} = any(${collectionsWhere('viewer')})`,
    }),
    pgPolicy('answer_settings_write', {
      for: 'all',
      to: appRole,
      using: sql`${t.collectionId} = any(${collectionsWhere('owner')})`,
      withCheck: sql`${t.collectionId} = any(${collectionsWhere('owner')})`,
    }),
  ],
).enableRLS();

/** Why a question is in the gap report. */
export const GAP_KINDS = ['refused', 'unhelpful', 'unsupported'] as const;
export type GapKindName = (typeof GAP_KINDS)[number];

/**
 * A question the knowledge base could not answer well (refused, marked unhelpful, or answered
 * with sentences not found in the sources), for the keepers of the collections it was asked
 * of: the gap report groups them by their embeddings. The asker writes it (with a turn of
 * theirs); the collections' editors and owners read it and mark it resolved — the question
 * only, never who asked.
 */
export const gapQuestions = pgTable(
  'gap_questions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    collectionIds: uuid('collection_ids').array().notNull(),
    kind: text('kind').$type<GapKindName>().notNull(),
    question: text('question').notNull(),
    /** The turn it comes from (null once the conversation is deleted). */
    messageId: uuid('message_id').references(() => messages.id, { onDelete: 'set null' }),
    askedBy: uuid('asked_by')
      .notNull()
      .default(sql`kbchat_user()`),
    bestSimilarity: real('best_similarity'),
    /** ChatSource[]: the passages closest to the question, most similar first. */
    closest: jsonb('closest').notNull().default([]),
    embedding: vector('embedding', { dimensions: EMBEDDING_COLUMN_DIMENSIONS }).notNull(),
    embeddingModel: text('embedding_model').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: uuid('resolved_by'),
  },
  (t) => [
    index('gap_questions_collections_idx').using('gin', t.collectionIds),
    index('gap_questions_created_idx').on(t.createdAt.desc()),
    check('gap_questions_kind_check', sql`${t.kind} in ('refused', 'unhelpful', 'unsupported')`),
    pgPolicy('gap_questions_ask', {
      for: 'insert',
      to: appRole,
      withCheck: sql`${t.askedBy} = ${actingUser} and ${t.collectionIds} <@ ${collectionsWhere('viewer')}`,
    }),
    // The asker reads back and withdraws their own question (taking back an unhelpful mark),
    // whatever their role in the collections; never anyone else's.
    pgPolicy('gap_questions_own_read', {
      for: 'select',
      to: appRole,
      using: sql`${t.askedBy} = ${actingUser}`,
    }),
    pgPolicy('gap_questions_withdraw', {
      for: 'delete',
      to: appRole,
      using: sql`${t.askedBy} = ${actingUser}`,
    }),
    pgPolicy('gap_questions_keep', {
      for: 'all',
      to: appRole,
      using: sql`${t.collectionIds} && ${collectionsWhere('editor')}`,
      withCheck: sql`${t.collectionIds} && ${collectionsWhere('editor')}`,
    }),
  ],
).enableRLS();

export type Conversation = typeof conversations.$inferSelect;
export type Message = typeof messages.$inferSelect;

/** Stands for "no API key" in usage_daily's key_id (a call made with a login token). */
export const NO_ID = '00000000-0000-0000-0000-000000000000';

/**
 * Stands for "no collection" in usage_daily's collection_id (a question over several
 * collections, or one that found nothing): the max UUID, because the nil UUID is the id of the
 * shared collection, whose usage is its own.
 */
export const NO_COLLECTION = 'ffffffff-ffff-ffff-ffff-ffffffffffff';

/**
 * Token usage and questions, summed per day (UTC), user, API key and collection: what the usage
 * pages show and what the daily limits count. `key_id` is NO_ID for a call made with a login
 * token, `collection_id` NO_COLLECTION for a question counted under no collection. A user reads
 * their own rows, a super admin everyone's.
 */
export const usageDaily = pgTable(
  'usage_daily',
  {
    day: date('day', { mode: 'string' }).notNull(),
    userId: uuid('user_id').notNull(),
    keyId: uuid('key_id').notNull().default(NO_ID),
    collectionId: uuid('collection_id').notNull().default(NO_COLLECTION),
    questions: integer('questions').notNull().default(0),
    embeddingTokens: bigint('embedding_tokens', { mode: 'number' }).notNull().default(0),
    promptTokens: bigint('prompt_tokens', { mode: 'number' }).notNull().default(0),
    completionTokens: bigint('completion_tokens', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.userId, t.keyId, t.collectionId] }),
    index('usage_daily_user_day_idx').on(t.userId, t.day),
    index('usage_daily_day_idx').on(t.day),
    pgPolicy('usage_daily_own', {
      for: 'all',
      to: appRole,
      using: sql`${t.userId} = ${actingUser}`,
      withCheck: sql`${t.userId} = ${actingUser}`,
    }),
    pgPolicy('usage_daily_super_admin_read', {
      for: 'select',
      to: appRole,
      using: actingSuperAdmin,
    }),
  ],
).enableRLS();

/**
 * The questions the daily question limit admitted, per user and UTC day: kbchat_quota counts a
 * question here as it admits it, under the row's lock, so that questions asked at once are
 * admitted one after the other and never past the limit (usage_daily is written only after the
 * answer). Kept only while a question limit is set; a question admitted counts even if it then
 * fails.
 */
export const usageAdmitted = pgTable(
  'usage_admitted',
  {
    userId: uuid('user_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    questions: integer('questions').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.day] }),
    pgPolicy('usage_admitted_own', {
      for: 'all',
      to: appRole,
      using: sql`${t.userId} = ${actingUser}`,
      withCheck: sql`${t.userId} = ${actingUser}`,
    }),
  ],
).enableRLS();

/**
 * The limits, one row (id 1): per user per day (tokens, questions) and per collection (stored
 * bytes, files); null is no limit. Whether each question is kept in the audit trail, and how
 * long audit records are kept, are settings here too. Everyone reads them (chat and knowledge
 * check them); super admins change them.
 */
export const usageLimits = pgTable(
  'usage_limits',
  {
    id: integer('id').primaryKey().default(1),
    userDailyTokens: bigint('user_daily_tokens', { mode: 'number' }),
    userDailyQuestions: integer('user_daily_questions'),
    collectionMaxBytes: bigint('collection_max_bytes', { mode: 'number' }),
    collectionMaxFiles: integer('collection_max_files'),
    /** Bytes of originals one user has uploaded, over every collection (kbchat_user_storage_quota). */
    userMaxBytes: bigint('user_max_bytes', { mode: 'number' }),
    auditQuestions: boolean('audit_questions').notNull().default(true),
    auditRetentionDays: integer('audit_retention_days').notNull().default(1095),
    updatedBy: uuid('updated_by'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('usage_limits_one_row', sql`${t.id} = 1`),
    check('usage_limits_retention_check', sql`${t.auditRetentionDays} >= 30`),
    pgPolicy('usage_limits_read', { for: 'select', to: appRole, using: sql`true` }),
    pgPolicy('usage_limits_write', {
      for: 'update',
      to: appRole,
      using: actingSuperAdmin,
      withCheck: actingSuperAdmin,
    }),
  ],
).enableRLS();
