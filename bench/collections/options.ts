// Layout B under row-level security: what else could keep recall for a small collection, whose
// rows the HNSW scan mostly hands to a filter that drops them, and at what cost. Each option is
// a setting, the route's explicit filter, or a btree on chunks(collection_id); vector mode.
import type { PGlite } from '@electric-sql/pglite';
import type { SearchQuery } from '../nearest-chunks-query.ts';
import type { Sparse } from '../index-design/vectors.ts';
import type { Case } from './layouts.ts';
import { timedRuns, vectorRecall, type RunOptions, type Scope } from './measure.ts';
import { explainAnalyze } from './plans.ts';
import type { OptionResult } from './results.ts';
import { EF_SEARCH } from './setup.ts';

interface OptionSpec {
  option: string;
  detail: string;
  settings?: string[];
  explicitFilter?: boolean;
  policyAlone?: boolean;
  btree?: boolean;
}

export const OPTIONS: OptionSpec[] = [
  {
    option: 'served',
    detail:
      `relaxed_order, ef_search ${EF_SEARCH}, max_scan_tuples 20000 (default); ` +
      "the readable files as the vector list's filter when they are a small scope",
  },
  {
    option: 'policy alone',
    detail: 'as served, without the readable files: row-level security alone decides',
    policyAlone: true,
  },
  {
    option: 'exact',
    detail: 'enable_indexscan = off: no HNSW, every visible chunk sorted by distance',
    settings: ['enable_indexscan = off'],
  },
  {
    option: 'strict_order',
    detail: 'hnsw.iterative_scan = strict_order',
    settings: ['hnsw.iterative_scan = strict_order'],
  },
  {
    option: 'max_scan_tuples 100k',
    detail: 'hnsw.max_scan_tuples = 100000',
    settings: ['hnsw.max_scan_tuples = 100000'],
  },
  { option: 'ef_search 100', detail: 'hnsw.ef_search = 100', settings: ['hnsw.ef_search = 100'] },
  {
    option: 'explicit filter',
    detail: "the route's collection_id in (…) besides the policy",
    explicitFilter: true,
  },
  {
    option: 'btree',
    detail: 'CREATE INDEX chunks_collection_id_idx ON chunks (collection_id)',
    btree: true,
  },
  {
    option: 'btree + explicit filter',
    detail: "the btree and the route's collection_id in (…)",
    btree: true,
    explicitFilter: true,
  },
];

export async function measureOptions(
  pg: PGlite,
  searchQuery: SearchQuery,
  cases: { c: Case; scope: Scope }[],
  vectorQueries: number,
  vectors: Sparse[],
  log: (message: string) => void,
): Promise<OptionResult[]> {
  const out: OptionResult[] = [];
  let btree = false;
  for (const spec of OPTIONS) {
    // The btree options come last: once built, the index stays until the end of the options.
    if (spec.btree && !btree) {
      await pg.exec(
        'CREATE INDEX chunks_collection_id_idx ON chunks (collection_id); ANALYZE chunks',
      );
      btree = true;
    }
    for (const { c, scope } of cases) {
      const opts: RunOptions = {
        role: 'app',
        ...(spec.settings ? { settings: spec.settings } : {}),
        ...(spec.explicitFilter ? { explicitFilter: true } : {}),
        ...(spec.policyAlone ? { policyAlone: true } : {}),
      };
      const qs = c.questions.slice(0, vectorQueries);
      const runs = await timedRuns(pg, searchQuery, scope, qs, 'vector', opts);
      const { shape } = await explainAnalyze(pg, searchQuery, scope, qs[0]!, 'vector', opts);
      const r: OptionResult = {
        option: spec.option,
        detail: spec.detail,
        case: c.key,
        mode: 'vector',
        plan: shape,
        latency: runs.latency,
        recall: vectorRecall(runs.ids, c.exact, vectors, qs),
      };
      out.push(r);
      log(
        `option ${spec.option} / ${c.key}: ${shape.summary}, p50 ${r.latency.median_ms.toFixed(1)} ms, ` +
          `p95 ${r.latency.p95_ms.toFixed(1)} ms, recall ${r.recall?.ties_ok}`,
      );
    }
  }
  if (btree) await pg.exec('DROP INDEX chunks_collection_id_idx; ANALYZE chunks');
  return out;
}
