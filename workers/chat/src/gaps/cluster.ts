import type { z } from 'zod';
import type { GapGroup } from '#shared/contracts/answer-upkeep';
import type { ChatSource } from '#shared/contracts/chat';
import type { GapKindName } from '../db/schema';

type Source = z.output<typeof ChatSource>;
type Group = z.output<typeof GapGroup>;

/**
 * Questions at least this similar (cosine) to a group's first question join it. Measured with
 * the offline embedding model (lexical: cosine = 0.42 + 0.58 · word overlap): rewordings that
 * keep most words score 0.83–0.95 ("年假有几天" / "年假一共有几天" 0.83; "how many days of
 * annual leave" / "How many days of annual leave do I get?" 0.94), different questions on one
 * topic 0.73–0.74 ("出差住宿费标准是多少" / "省外出差住宿费每天的限额是多少"; "年假有几天" /
 * "年假可以休几天"), unrelated ones 0.42–0.47. 0.85 split the first pair; 0.8 keeps every
 * rewording together and every different question apart. A real model scores paraphrases
 * higher than a lexical one (it also matches "年休假有多少天", 0.64 here), so 0.8 errs on the
 * side of groups that mean one question.
 */
export const GROUP_SIMILARITY = 0.8;

/** The questions of a group listed, and the passages shown per group. */
export const GROUP_QUESTIONS = 10;
export const GROUP_PASSAGES = 3;

export interface GapRow {
  id: number;
  kind: GapKindName;
  question: string;
  bestSimilarity: number | null;
  closest: Source[];
  createdAt: Date;
  resolvedAt: Date | null;
}

/** The pairs of questions at least GROUP_SIMILARITY similar (Postgres computes them: store/gaps.ts). */
export type SimilarPairs = ReadonlySet<string>;

export const pairKey = (a: number, b: number) => (a < b ? `${a}:${b}` : `${b}:${a}`);

/**
 * Greedy leader clustering, newest question first: each question joins the first group whose
 * leader (its newest question) it is similar to, else leads a new group. One pass, rows × groups
 * look-ups, deterministic for a given order, and a group never drifts away from its leader's
 * meaning (as chained single-linkage would). Resolved and open questions are never grouped
 * together: a group is resolved or not as a whole.
 */
export function groupGaps(rows: readonly GapRow[], similar: SimilarPairs): Group[] {
  const ordered = [...rows].sort(
    (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id,
  );
  const clusters: { leader: GapRow; members: GapRow[] }[] = [];
  for (const row of ordered) {
    const home = clusters.find(
      (c) =>
        (c.leader.resolvedAt === null) === (row.resolvedAt === null) &&
        similar.has(pairKey(c.leader.id, row.id)),
    );
    if (home) home.members.push(row);
    else clusters.push({ leader: row, members: [row] });
  }
  return clusters
    .map(({ members }) => summarise(members))
    .sort((a, b) => b.count - a.count || b.latest.localeCompare(a.latest));
}

/** A group as the report tells it; `members` newest first. */
function summarise(members: GapRow[]): Group {
  const kinds = { refused: 0, unhelpful: 0, unsupported: 0 };
  for (const row of members) kinds[row.kind] += 1;
  const similarities = members
    .map((row) => row.bestSimilarity)
    .filter((s): s is number => s !== null);
  return {
    ids: members.map((row) => row.id),
    questions: [...new Set(members.map((row) => row.question.trim()))].slice(0, GROUP_QUESTIONS),
    count: members.length,
    kinds,
    latest: members[0]!.createdAt.toISOString(),
    best_similarity: similarities.length > 0 ? Math.max(...similarities) : null,
    closest_passages: closestPassages(members.flatMap((row) => row.closest)),
    resolved: members[0]!.resolvedAt !== null,
  };
}

/** The most similar passages, each chunk once (its best showing), at most GROUP_PASSAGES. */
export function closestPassages(passages: readonly Source[]): Source[] {
  const best = new Map<string, Source>();
  for (const passage of passages) {
    const key =
      passage.chunk_id != null
        ? `chunk:${passage.chunk_id}`
        : `page:${passage.file_id}:${passage.page}:${passage.section ?? ''}`;
    const seen = best.get(key);
    if (!seen || (passage.similarity ?? -1) > (seen.similarity ?? -1)) best.set(key, passage);
  }
  return [...best.values()]
    .sort((a, b) => (b.similarity ?? -1) - (a.similarity ?? -1))
    .slice(0, GROUP_PASSAGES)
    .map((passage) => ({ ...passage, citation: null }));
}
