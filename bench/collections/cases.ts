// One case (a user and their questions) in one role: the served statement in the three modes,
// timed, compared with exact search, and explained.
import type { PGlite } from '@electric-sql/pglite';
import type { SearchMode, SearchQuery } from '../nearest-chunks-query.ts';
import type { Sparse } from '../index-design/vectors.ts';
import type { Case } from './layouts.ts';
import {
  overlap,
  timedRuns,
  vectorRecall,
  type Role,
  type RunOptions,
  type Scope,
} from './measure.ts';
import {
  explainAnalyze,
  explainKeywordFunction,
  type KeywordStore,
  type PlanShape,
} from './plans.ts';
import type { CaseRoleResult } from './results.ts';

export interface Counts {
  /** Questions timed in vector mode (recall needs many: it is a share of 10 per question). */
  vector: number;
  /** Questions timed in hybrid and keyword mode. */
  hybrid: number;
}

export async function measureCase(
  pg: PGlite,
  searchQuery: SearchQuery,
  store: KeywordStore,
  c: Case,
  scope: Scope,
  role: Role,
  counts: Counts,
  vectors: Sparse[],
  /** The owner's keyword top 10s of the same case, when this run is the app's. */
  ownerKeyword: number[][] | undefined,
): Promise<CaseRoleResult & { keywordIds: number[][] }> {
  const opts: RunOptions = { role };
  const vq = c.questions.slice(0, counts.vector);
  const hq = c.questions.slice(0, counts.hybrid);
  const vector = await timedRuns(pg, searchQuery, scope, vq, 'vector', opts);
  const hybrid = await timedRuns(pg, searchQuery, scope, hq, 'hybrid', opts);
  // Hybrid has no exact reference computed in JS (the keyword list's idf is the database's):
  // the same statement with no index scans (GIN bitmap scans stay) is its exact form.
  const hybridExact = await timedRuns(pg, searchQuery, scope, hq, 'hybrid', {
    ...opts,
    settings: ['enable_indexscan = off'],
  });
  const keyword = await timedRuns(pg, searchQuery, scope, hq, 'keyword', opts);
  const plans = {} as Record<SearchMode, PlanShape>;
  const planText = {} as CaseRoleResult['plan_text'];
  for (const mode of ['vector', 'hybrid', 'keyword'] as const) {
    const { shape, plan } = await explainAnalyze(
      pg,
      searchQuery,
      scope,
      c.questions[0]!,
      mode,
      opts,
    );
    plans[mode] = shape;
    planText[mode] = plan;
  }
  const inside = await explainKeywordFunction(pg, scope, c.questions[0]!, role, store);
  planText.keyword_function = inside.plan;
  return {
    case: c.key,
    layout: c.layout,
    role,
    visible_chunks: c.visible_chunks,
    vector: { latency: vector.latency, recall: vectorRecall(vector.ids, c.exact, vectors, vq) },
    hybrid: {
      latency: hybrid.latency,
      agreement_with_exact: overlap(hybrid.ids, hybridExact.ids),
    },
    keyword: {
      latency: keyword.latency,
      agreement_with_owner: ownerKeyword ? overlap(keyword.ids, ownerKeyword) : null,
    },
    plans,
    keyword_function: inside.shape,
    plan_text: planText,
    keywordIds: keyword.ids,
  };
}
