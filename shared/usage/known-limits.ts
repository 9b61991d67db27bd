/** The daily limits of usage_limits (null: none), as a limits check reads them. */
export interface DailyLimits {
  userDailyTokens: number | null;
  userDailyQuestions: number | null;
}

/** What a daily limits check is for: a question meets both limits, a search the token limit. */
export type QuotaOf = 'question' | 'search';

/**
 * Each worker's isolate keeps its own (chat's for its doors, knowledge's for its searches).
 * How long this isolate trusts the daily limits it last read to skip a check no limit applies
 * to. A change made through this isolate (PutLimits) forgets them at once; one made through
 * another reaches this one within this time.
 */
export const KNOWN_LIMITS_MS = 10_000;

let known: { at: number; limits: DailyLimits } | undefined;
// Moves on at every forget: a read that started before a change never brings the old limits back.
let generation = 0;

/** The limits as the last check read them, while fresh. */
export function knownLimits(now = Date.now()): DailyLimits | undefined {
  return known && now - known.at < KNOWN_LIMITS_MS ? known.limits : undefined;
}

/** The generation to hand back to rememberLimits with what a check about to start reads. */
export const limitsGeneration = () => generation;

export function rememberLimits(limits: DailyLimits, readIn: number, now = Date.now()): void {
  if (readIn === generation) known = { at: now, limits };
}

export function forgetLimits(): void {
  known = undefined;
  generation++;
}

/** Whether any daily limit applies to a question or a search under these limits. */
export function limitApplies(limits: DailyLimits, what: QuotaOf): boolean {
  return (
    limits.userDailyTokens !== null || (what === 'question' && limits.userDailyQuestions !== null)
  );
}
