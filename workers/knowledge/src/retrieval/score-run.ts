/**
 * Scoring a collection's saved retrieval questions against what search returned for each: the
 * rank of the first result from the expected file (and page, when the case names one), and
 * over all cases the hit rate and the mean reciprocal rank (a miss counts 0).
 */

export interface ExpectedPassage {
  file_id: string;
  /** Null: any page of the file will do. */
  page: number | null;
}

export interface RankedResult {
  file_id: string;
  page: number;
  similarity: number;
}

export interface CaseScore {
  /** 1-based; null when no result within those given matches. */
  rank: number | null;
  similarity: number | null;
}

/** Where the expected passage first appears among `results` (in rank order). */
export function scoreCase(expected: ExpectedPassage, results: readonly RankedResult[]): CaseScore {
  const at = results.findIndex(
    (r) => r.file_id === expected.file_id && (expected.page === null || r.page === expected.page),
  );
  if (at < 0) return { rank: null, similarity: null };
  return { rank: at + 1, similarity: results[at]!.similarity };
}

/** Hit rate and MRR over the cases' ranks; both 0 when there are no cases. */
export function summarise(ranks: readonly (number | null)[]): { hit_rate: number; mrr: number } {
  if (ranks.length === 0) return { hit_rate: 0, mrr: 0 };
  let hits = 0;
  let reciprocal = 0;
  for (const rank of ranks) {
    if (rank === null) continue;
    hits += 1;
    reciprocal += 1 / rank;
  }
  return { hit_rate: hits / ranks.length, mrr: reciprocal / ranks.length };
}
