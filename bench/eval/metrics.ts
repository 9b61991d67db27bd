// Retrieval metrics over ranked query results: hit@k, reciprocal rank, and the chat rule's
// refusals scored as a classifier (refusing is the positive class).

/** What a query result must carry for scoring; the service's results have more. */
export interface RankedResult {
  file_id: string;
  file_name: string;
  page: number;
  similarity: number;
}

/** An answer location: a file by name or id, and optionally the pages that answer. */
export interface ExpectedLocation {
  file_name?: string;
  file_id?: string;
  /** Any page of the file counts when absent. */
  pages?: readonly number[];
}

export function isHit(result: RankedResult, expected: readonly ExpectedLocation[]): boolean {
  return expected.some(
    (e) =>
      (e.file_id !== undefined ? result.file_id === e.file_id : result.file_name === e.file_name) &&
      (e.pages === undefined || e.pages.includes(result.page)),
  );
}

/** 1-based rank of the first result on an expected page within the first `k`, else undefined. */
export function firstHitRank(
  results: readonly RankedResult[],
  expected: readonly ExpectedLocation[],
  k: number,
): number | undefined {
  const index = results.slice(0, k).findIndex((r) => isHit(r, expected));
  return index < 0 ? undefined : index + 1;
}

/** 1 when the first hit is within the first `k` results, else 0. */
export function hitAtK(rank: number | undefined, k: number): 0 | 1 {
  return rank !== undefined && rank <= k ? 1 : 0;
}

/** 1/rank of the first hit within the first `k` results, else 0 (MRR@k averages it). */
export function reciprocalRank(rank: number | undefined, k: number): number {
  return rank !== undefined && rank <= k ? 1 / rank : 0;
}

/** The chat rule: refuse when no result reaches the threshold (inclusive). */
export function refuses(results: readonly { similarity: number }[], threshold: number): boolean {
  return !results.some((r) => r.similarity >= threshold);
}

export interface RefusalScores {
  /** Refused and should have been (no_answer). */
  true_refusals: number;
  /** Refused although the corpus answers it. */
  false_refusals: number;
  /** Answered although nothing answers it. */
  missed_refusals: number;
  /** Answered and answerable. */
  answered: number;
  /** Of the refusals, the share that were right; null when nothing was refused. */
  precision: number | null;
  /** Of the questions to refuse, the share refused; null when there were none. */
  recall: number | null;
}

export function refusalScores(
  outcomes: readonly { shouldRefuse: boolean; refused: boolean }[],
): RefusalScores {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  for (const o of outcomes) {
    if (o.refused && o.shouldRefuse) tp++;
    else if (o.refused) fp++;
    else if (o.shouldRefuse) fn++;
    else tn++;
  }
  return {
    true_refusals: tp,
    false_refusals: fp,
    missed_refusals: fn,
    answered: tn,
    precision: tp + fp > 0 ? tp / (tp + fp) : null,
    recall: tp + fn > 0 ? tp / (tp + fn) : null,
  };
}

/** One question's outcome in one mode: what the summaries are computed from. */
export interface QuestionOutcome {
  answerable: boolean;
  /** 1-based rank of the first hit within top 10; undefined for none (or no_answer). */
  rank: number | undefined;
  refused: boolean;
  /** The highest similarity among the results; null when there were none. */
  best_similarity: number | null;
}

export interface Summary {
  questions: number;
  answerable: number;
  /** Over answerable questions only; null when there are none. */
  hit_at_1: number | null;
  hit_at_5: number | null;
  mrr_at_10: number | null;
  refusal: RefusalScores;
  median_best_similarity: { answerable: number | null; no_answer: number | null };
}

const mean = (xs: readonly number[]) =>
  xs.length ? xs.reduce((sum, x) => sum + x, 0) / xs.length : null;

export function median(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function summarise(outcomes: readonly QuestionOutcome[]): Summary {
  const answerable = outcomes.filter((o) => o.answerable);
  const best = (list: readonly QuestionOutcome[]) =>
    median(list.flatMap((o) => (o.best_similarity === null ? [] : [o.best_similarity])));
  return {
    questions: outcomes.length,
    answerable: answerable.length,
    hit_at_1: mean(answerable.map((o) => hitAtK(o.rank, 1))),
    hit_at_5: mean(answerable.map((o) => hitAtK(o.rank, 5))),
    mrr_at_10: mean(answerable.map((o) => reciprocalRank(o.rank, 10))),
    refusal: refusalScores(
      outcomes.map((o) => ({ shouldRefuse: !o.answerable, refused: o.refused })),
    ),
    median_best_similarity: {
      answerable: best(answerable),
      no_answer: best(outcomes.filter((o) => !o.answerable)),
    },
  };
}

/** Refusal precision and recall at each threshold, from the best similarities alone. */
export function thresholdSweep(
  outcomes: readonly QuestionOutcome[],
  thresholds: readonly number[],
): ({ threshold: number } & RefusalScores)[] {
  return thresholds.map((threshold) => ({
    threshold,
    ...refusalScores(
      outcomes.map((o) => ({
        shouldRefuse: !o.answerable,
        refused: o.best_similarity === null || o.best_similarity < threshold,
      })),
    ),
  }));
}
