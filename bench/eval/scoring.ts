// Scores one mode's results: per question, then overall, per category and per language.
import type { ServedResult } from './knowledge-api.ts';
import {
  firstHitRank,
  refuses,
  summarise,
  thresholdSweep,
  type ExpectedLocation,
  type QuestionOutcome,
  type Summary,
} from './metrics.ts';

/** A question as the runner sees it: the built-in set and operators' files both become this. */
export interface EvalItem {
  id: string;
  /** `zh` or `en` for the built-in set; operators' questions are detected (CJK → zh). */
  language: string;
  category: string;
  question: string;
  /** Where the answer is; empty when nothing answers (the chat should refuse). */
  expected: readonly ExpectedLocation[];
}

export const SWEEP_THRESHOLDS = [0.4, 0.425, 0.45, 0.475, 0.5, 0.525, 0.55, 0.575, 0.6, 0.65, 0.7];

export function outcomeOf(
  item: EvalItem,
  results: readonly ServedResult[],
  threshold: number,
  top: number,
): QuestionOutcome {
  const answerable = item.expected.length > 0;
  // A hybrid server may leave `similarity` out of results only its keyword search found; the
  // chat rule cannot pass those, so they neither count nor break the maximum.
  const similarities = results.map((r) => r.similarity).filter((x) => Number.isFinite(x));
  return {
    answerable,
    rank: answerable ? firstHitRank(results, item.expected, top) : undefined,
    refused: refuses(results, threshold),
    best_similarity: similarities.length ? Math.max(...similarities) : null,
  };
}

function groupBy(
  items: readonly EvalItem[],
  outcomes: readonly QuestionOutcome[],
  key: (item: EvalItem) => string,
): Record<string, Summary> {
  const groups = new Map<string, QuestionOutcome[]>();
  items.forEach((item, i) => {
    const list = groups.get(key(item)) ?? [];
    list.push(outcomes[i]!);
    groups.set(key(item), list);
  });
  return Object.fromEntries([...groups].map(([name, list]) => [name, summarise(list)]));
}

export interface ModeScores {
  overall: Summary;
  by_category: Record<string, Summary>;
  by_language: Record<string, Summary>;
  threshold_sweep: ReturnType<typeof thresholdSweep>;
}

export function scoreMode(
  items: readonly EvalItem[],
  outcomes: readonly QuestionOutcome[],
): ModeScores {
  return {
    overall: summarise(outcomes),
    by_category: groupBy(items, outcomes, (item) => item.category),
    by_language: groupBy(items, outcomes, (item) => item.language),
    threshold_sweep: thresholdSweep(outcomes, SWEEP_THRESHOLDS),
  };
}
