import type { Api } from '../api/services';

/** One ranked passage as GetQuery answers it. */
export type QueryResult = Awaited<ReturnType<Api['knowledge']['GetQuery']>>[number];
/** A saved question of the collection's test set. */
export type RetrievalTest = Awaited<ReturnType<Api['knowledge']['GetRetrievalTests']>>[number];
/** The test set run: each case's rank, the hit rate and MRR. */
export type RetrievalTestRun = Awaited<ReturnType<Api['knowledge']['PostRetrievalTestRun']>>;
export type SearchMode = RetrievalTestRun['mode'];
export const SEARCH_MODES: readonly SearchMode[] = ['hybrid', 'vector', 'keyword'];

/**
 * Whether chat would use a passage: its similarity reaches chat's threshold (inclusive, as
 * chat compares). Undefined when the threshold is not known: the page then shows no verdict.
 */
export function passesThreshold(similarity: number, threshold: number | undefined) {
  return threshold === undefined ? undefined : similarity >= threshold;
}
