import { sql } from 'drizzle-orm';
import type { DailyLimits } from '#shared/usage/known-limits';
import type { KnowledgeDb } from './files';

type Db = KnowledgeDb['db'];

/**
 * The daily limits and usage of a search made over HTTP, through the functions chat declares
 * for them (usage_daily and usage_limits are chat's tables, see docs/architecture.md).
 */

/** Fails the batch (SQLSTATE KBQ01) when the acting user has reached the daily token limit. */
export const searchQuotaCheck = (db: Db) => db.execute(sql`select kbchat_quota(false)`);

/** The daily limits set (a setting of chat's usage_limits, read as every user may). */
export const dailyLimits = (db: Db) =>
  db.execute<DailyLimits & Record<string, unknown>>(
    sql`select user_daily_tokens::float8 as "userDailyTokens",
      user_daily_questions as "userDailyQuestions" from usage_limits where id = 1`,
  );

/** Adds a search's embedding tokens to the acting user's usage of today. */
export const searchUsage = (
  db: Db,
  usage: { keyId: string | null; collectionId: string | null; embeddingTokens: number },
) =>
  db.execute(
    sql`select kbchat_search_usage(${usage.keyId}::uuid, ${usage.collectionId}::uuid, ${usage.embeddingTokens}::bigint)`,
  );
