import { z } from 'zod';

/** A calendar day (UTC), `YYYY-MM-DD`. */
export const Day = z.iso.date();

/** What was used in a day or a period: questions asked and tokens spent. */
export const UsageAmounts = z.object({
  questions: z.number().int(),
  embedding_tokens: z.number().int(),
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  /** embedding + prompt + completion: what the daily token limit counts. */
  total_tokens: z.number().int(),
});

export const UsageDay = UsageAmounts.extend({ day: Day });

/** The limits (null: none), as super admins set them. */
export const UsageLimits = z.object({
  /** Tokens (embedding, prompt and completion) per user per day (UTC). */
  user_daily_tokens: z.number().int().min(1).nullable(),
  /** Questions per user per day (UTC). */
  user_daily_questions: z.number().int().min(1).nullable(),
  /** Bytes of original files per collection. */
  collection_max_bytes: z.number().int().min(1).nullable(),
  /** Files per collection. */
  collection_max_files: z.number().int().min(1).nullable(),
  /** Bytes of original files one user has uploaded, over every collection. */
  user_max_bytes: z.number().int().min(1).nullable(),
  /** Each question is kept in the audit trail with the files it cited. */
  audit_questions: z.boolean(),
  /** Audit records older than this are removed (at least 30). */
  audit_retention_days: z.number().int().min(30).max(36500),
});

/**
 * The limits as PutLimits takes them: each as UsageLimits tells it, except that `user_max_bytes`
 * (added later) may be left out by a script written before it, which then leaves it as it is.
 */
export const UsageLimitsInput = UsageLimits.extend({
  user_max_bytes: UsageLimits.shape.user_max_bytes.optional(),
});

/** A user's usage over a period (GetUsage). */
export const UsageReport = z.object({
  from: Day,
  to: Day,
  totals: UsageAmounts,
  days: z.array(UsageDay),
  /** Per API key (`key_id` null: with a login token). */
  by_key: z.array(
    UsageAmounts.extend({ key_id: z.string().nullable(), key_name: z.string().nullable() }),
  ),
  /** Per collection (`collection_id` null: a question asked of no collection). */
  by_collection: z.array(
    UsageAmounts.extend({
      collection_id: z.string().nullable(),
      collection_name: z.string().nullable(),
    }),
  ),
  /** Today so far against the daily limits, and when they reset (ISO 8601). */
  today: z.object({
    questions: z.number().int(),
    total_tokens: z.number().int(),
    limits: z.object({
      user_daily_tokens: z.number().int().nullable(),
      user_daily_questions: z.number().int().nullable(),
    }),
    resets_at: z.string(),
  }),
  /**
   * The bytes of originals the user has stored over every collection (each version and failed
   * file included), against the storage limit per user (null: none).
   */
  storage: z.object({ bytes: z.number().int(), limit: z.number().int().nullable() }),
});

/** Everyone's usage over a period (GetUsageAll). */
export const UsageOverview = z.object({
  from: Day,
  to: Day,
  totals: UsageAmounts,
  days: z.array(UsageDay),
  by_user: z.array(UsageAmounts.extend({ user_id: z.string(), username: z.string().nullable() })),
  by_collection: z.array(
    UsageAmounts.extend({
      collection_id: z.string().nullable(),
      collection_name: z.string().nullable(),
    }),
  ),
});

/** The period of a usage report: `from`..`to` inclusive, by default the last 30 days. */
export const UsagePeriod = { from: Day.optional(), to: Day.optional() };
