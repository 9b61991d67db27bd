// How much of the exact nearest-neighbour list the served (HNSW) query returned.

export interface Neighbour {
  id: number;
  similarity: number;
}

/** Similarities closer than this are the same value (float32 storage, text round trips). */
const EPS = 1e-6;

export interface RecallAtK {
  /** Share of the exact top-k ids that the served list holds. */
  ids: number;
  /**
   * The same, counting also a served result whose similarity ties the exact k-th: the offline
   * model's lexical vectors tie often, and which of two tied chunks comes back is arbitrary.
   */
  ties_ok: number;
}

export function recallAtK(
  served: readonly Neighbour[],
  exact: readonly Neighbour[],
  k: number,
): RecallAtK {
  const truth = exact.slice(0, k);
  if (truth.length === 0) return { ids: 1, ties_ok: 1 };
  const wanted = new Set(truth.map((n) => n.id));
  const kth = truth[truth.length - 1]!.similarity;
  const got = served.slice(0, k);
  const strict = got.filter((n) => wanted.has(n.id)).length;
  const tolerant = got.filter((n) => wanted.has(n.id) || n.similarity >= kth - EPS).length;
  return { ids: strict / truth.length, ties_ok: Math.min(1, tolerant / truth.length) };
}

/** Largest |served − exact| similarity of a chunk both lists hold: do the embeddings agree? */
export function largestSimilarityGap(
  served: readonly Neighbour[],
  exact: readonly Neighbour[],
): number {
  const exactById = new Map(exact.map((n) => [n.id, n.similarity]));
  let gap = 0;
  for (const n of served) {
    const other = exactById.get(n.id);
    if (other !== undefined) gap = Math.max(gap, Math.abs(n.similarity - other));
  }
  return gap;
}
