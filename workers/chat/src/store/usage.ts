import { sql, type SQL } from 'drizzle-orm';
import type { AuditEvent } from '#shared/audit/record';
import type { QuotaOf } from '#shared/usage/known-limits';
import { NO_COLLECTION, NO_ID, usageDaily, usageLimits } from '../db/schema';
import type { ChatDb } from '../call';
import { recorded } from './audit';

/**
 * Every statement of usage and limits. usage_daily's policies let a user write and read their
 * own rows and a super admin read everyone's, so a user's report names the user explicitly
 * (a super admin asking for their own must not get everyone's).
 */
type Queries = ChatDb['db'];

/** Today as the usage rows count it: the UTC calendar day, in the database's clock. */
const TODAY = sql`(now() at time zone 'UTC')::date`;

/** Fails the batch (SQLSTATE KBQ01) when the acting user has reached a daily limit. */
export const quotaCheck = (db: Queries, what: QuotaOf = 'question') =>
  db.execute(what === 'question' ? sql`select kbchat_quota()` : sql`select kbchat_quota(false)`);

export interface UsageRow {
  userId: string;
  keyId: string | null;
  collectionId: string | null;
  questions: number;
  embeddingTokens: number;
  promptTokens: number;
  completionTokens: number;
}

/** Adds to today's row of (user, key, collection): one upsert. */
export const addUsage = (db: Queries, row: UsageRow) =>
  db
    .insert(usageDaily)
    .values({
      day: TODAY as unknown as string,
      userId: row.userId,
      keyId: row.keyId ?? NO_ID,
      collectionId: row.collectionId ?? NO_COLLECTION,
      questions: row.questions,
      embeddingTokens: row.embeddingTokens,
      promptTokens: row.promptTokens,
      completionTokens: row.completionTokens,
    })
    .onConflictDoUpdate({
      target: [usageDaily.day, usageDaily.userId, usageDaily.keyId, usageDaily.collectionId],
      set: {
        questions: sql`${usageDaily.questions} + excluded.questions`,
        embeddingTokens: sql`${usageDaily.embeddingTokens} + excluded.embedding_tokens`,
        promptTokens: sql`${usageDaily.promptTokens} + excluded.prompt_tokens`,
        completionTokens: sql`${usageDaily.completionTokens} + excluded.completion_tokens`,
      },
    });

/**
 * Adds a search's embedding tokens to today's row of (user, key, collection): through
 * kbchat_search_usage, the one way any worker records a search (knowledge's search routes too).
 */
export const searchUsage = (
  db: Queries,
  usage: { keyId: string | null; collectionId: string | null; embeddingTokens: number },
) =>
  db.execute(
    sql`select kbchat_search_usage(${usage.keyId}::uuid, ${usage.collectionId}::uuid, ${usage.embeddingTokens}::bigint)`,
  );

/** The `chat.question` audit record, written only while usage_limits.audit_questions is on. */
export const auditQuestion = (db: Queries, event: Omit<AuditEvent, 'when'>) =>
  recorded(db, {
    ...event,
    when: sql`(select ${usageLimits.auditQuestions} from ${usageLimits} where ${usageLimits.id} = 1)`,
  });

const amounts = sql`coalesce(sum(d.questions), 0)::int as questions,
  coalesce(sum(d.embedding_tokens), 0)::bigint as embedding_tokens,
  coalesce(sum(d.prompt_tokens), 0)::bigint as prompt_tokens,
  coalesce(sum(d.completion_tokens), 0)::bigint as completion_tokens`;

export interface AmountsRow extends Record<string, unknown> {
  questions: number | string;
  embedding_tokens: number | string;
  prompt_tokens: number | string;
  completion_tokens: number | string;
}

/** The rows of a period, of one user or (null) everyone the caller may read. */
function period(userId: string | null, from: string, to: string): SQL {
  return sql`d.day between ${from}::date and ${to}::date${
    userId ? sql` and d.user_id = ${userId}::uuid` : sql``
  }`;
}

export const usageByDay = (db: Queries, userId: string | null, from: string, to: string) =>
  db.execute<AmountsRow & { day: string }>(sql`
    select d.day::text as day, ${amounts} from usage_daily d
    where ${period(userId, from, to)} group by d.day order by d.day`);

/** Per API key, with the key's name (NO_ID: with a login token). */
export const usageByKey = (db: Queries, userId: string, from: string, to: string) =>
  db.execute<AmountsRow & { key_id: string; key_name: string | null }>(sql`
    select d.key_id::text as key_id, k.name as key_name, ${amounts}
    from usage_daily d left join api_keys k on k.id = d.key_id
    where ${period(userId, from, to)} group by d.key_id, k.name order by 3 desc, 1`);

/** Per collection, with its name where the caller can still read it (NO_COLLECTION: none). */
export const usageByCollection = (db: Queries, userId: string | null, from: string, to: string) =>
  db.execute<AmountsRow & { collection_id: string; collection_name: string | null }>(sql`
    select d.collection_id::text as collection_id, c.name as collection_name, ${amounts}
    from usage_daily d left join collections c on c.id = d.collection_id
    where ${period(userId, from, to)} group by d.collection_id, c.name order by 3 desc, 1`);

/** Per user, with their name (everyone: super admins only, by usage_daily's policies). */
export const usageByUser = (db: Queries, from: string, to: string) =>
  db.execute<AmountsRow & { user_id: string; username: string | null }>(sql`
    select d.user_id::text as user_id, u.username, ${amounts}
    from usage_daily d left join users u on u.id = d.user_id
    where ${period(null, from, to)} group by d.user_id, u.username order by 3 desc, 1`);

/**
 * The bytes of originals the caller has stored over every collection (kbchat_stored_bytes, as
 * the storage limit counts them); bigint as text.
 */
export const storedBytes = (db: Queries) =>
  db.execute<{ bytes: string }>(sql`select kbchat_stored_bytes()::text as bytes`);

/** The user's usage today (UTC). */
export const usageToday = (db: Queries, userId: string) =>
  db.execute<AmountsRow>(sql`
    select ${amounts} from usage_daily d where d.user_id = ${userId}::uuid and d.day = ${TODAY}`);

const limitColumns = {
  userDailyTokens: usageLimits.userDailyTokens,
  userDailyQuestions: usageLimits.userDailyQuestions,
  collectionMaxBytes: usageLimits.collectionMaxBytes,
  collectionMaxFiles: usageLimits.collectionMaxFiles,
  userMaxBytes: usageLimits.userMaxBytes,
  auditQuestions: usageLimits.auditQuestions,
  auditRetentionDays: usageLimits.auditRetentionDays,
};

export type LimitsRow = {
  userDailyTokens: number | null;
  userDailyQuestions: number | null;
  collectionMaxBytes: number | null;
  collectionMaxFiles: number | null;
  /** Optional: a change that leaves it out leaves it as it is. */
  userMaxBytes?: number | null;
  auditQuestions: boolean;
  auditRetentionDays: number;
};

export const limits = (db: Queries) => db.select(limitColumns).from(usageLimits);

/** The limits, locked to the end of the batch: a change after it replaces the row read here. */
export const limitsLocked = (db: Queries) => limits(db).for('update');

/** Sets the limits (the policy lets only super admins update the row). */
export const setLimits = (db: Queries, row: LimitsRow, by: string) =>
  db
    .update(usageLimits)
    .set({ ...row, updatedBy: by, updatedAt: sql`now()` })
    .returning(limitColumns);
