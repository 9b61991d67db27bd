// What bench/collections.ts saves (bench-results/collections.json) and prints from.
import type { SearchMode } from '../nearest-chunks-query.ts';
import type { Stats } from '../stats.ts';
import type { Recall, Role } from './measure.ts';
import type { PlanShape } from './plans.ts';

export interface CaseRoleResult {
  case: string;
  layout: 'A' | 'B';
  role: Role;
  visible_chunks: number;
  vector: { latency: Stats; recall: Recall };
  hybrid: {
    latency: Stats;
    /** Share of the exact run's top 10 (same statement, same role, enable_indexscan = off). */
    agreement_with_exact: number;
  };
  keyword: {
    latency: Stats;
    /** Share of the owner's keyword top 10 that this role's run also returns. */
    agreement_with_owner: number | null;
  };
  /** The served statement's plan for the first question. */
  plans: Record<SearchMode, PlanShape>;
  /** Keyword mode: the plan inside kbchat_keyword_candidates (run as its owner). */
  keyword_function: PlanShape;
  plan_text: Record<SearchMode | 'keyword_function', string>;
}

export interface OptionResult {
  option: string;
  detail: string;
  case: string;
  mode: SearchMode;
  plan: PlanShape;
  latency: Stats;
  /** Vector mode only. */
  recall: Recall | null;
}

export interface FileListResult {
  /** How many files the collections the user cannot read hold. */
  other_files: number;
  visible_files: number;
  role: Role;
  /** The route's collection_id filter (the user's one collection) was passed. */
  collection_filter: boolean;
  rows: number;
  /** The statement alone, in its transaction (session check outside the timing). */
  latency: Stats;
  /** How the files were found (first node reading files) and EXPLAIN ANALYZE's time. */
  files_access: string;
  execution_ms: number | null;
}

export interface LayoutResult {
  name: string;
  description: string;
  collections: { name: string; chunks: number }[];
  load_s: number;
  hnsw_build_s: number;
  gin_build_s: number;
}

export interface Saved {
  started_at: string;
  finished_at: string;
  machine: Record<string, unknown>;
  rows: number;
  vector_queries: number;
  hybrid_queries: number;
  settings: string;
  layouts: LayoutResult[];
  cases: { key: string; layout: string; description: string; visible_chunks: number }[];
  results: CaseRoleResult[];
  options: OptionResult[];
  file_list: FileListResult[];
  recommendation: string[];
}
