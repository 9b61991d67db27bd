// The tables bench/collections.ts prints (after a run, or from the saved file with --print),
// and a few sentences computed from the numbers.
import { table } from '../table.ts';
import type { Role } from './measure.ts';
import { OPTIONS } from './options.ts';
import type { OptionResult, Saved } from './results.ts';

const ms = (x: number | null) => (x === null ? '—' : x.toFixed(1));
const roleLabel = (r: Role) => (r === 'app' ? 'app (RLS)' : 'owner + filter');

function section(title: string, header: string[], lines: string[][]): void {
  console.log(`\n${title}\n`);
  console.log(table(header, lines));
}

export function printTables(saved: Saved): void {
  console.log(
    `\nCollections: ${saved.rows} chunks (offline-model vectors), ${saved.vector_queries} vector / ` +
      `${saved.hybrid_queries} hybrid and keyword questions per case; ${saved.settings}`,
  );
  console.log(
    table(
      ['layout', 'collections', 'load s', 'hnsw build s', 'gin build s'],
      saved.layouts.map((l) => [
        l.name,
        l.description,
        String(l.load_s),
        String(l.hnsw_build_s),
        String(l.gin_build_s),
      ]),
    ),
  );
  section(
    'Vector mode (top 10): latency of the statement; recall@10 against exact search with the same ' +
      'filter (ties with the 10th count); worst = the worst single question',
    [
      'case',
      'role',
      'visible',
      'plan (1st question)',
      'p50 ms',
      'p95 ms',
      'recall@10',
      'ids',
      'worst',
      'short',
    ],
    saved.results.map((r) => [
      r.case,
      roleLabel(r.role),
      String(r.visible_chunks),
      r.plans.vector.summary,
      ms(r.vector.latency.median_ms),
      ms(r.vector.latency.p95_ms),
      r.vector.recall.ties_ok.toFixed(3),
      r.vector.recall.ids.toFixed(3),
      r.vector.recall.worst.toFixed(2),
      String(r.vector.recall.short_results),
    ]),
  );
  section(
    'Hybrid mode: agreement@10 = share of the top 10 of the same statement run exactly ' +
      '(same role, enable_indexscan = off)',
    ['case', 'role', 'plan (1st question)', 'p50 ms', 'p95 ms', 'agreement@10'],
    saved.results.map((r) => [
      r.case,
      roleLabel(r.role),
      r.plans.hybrid.summary,
      ms(r.hybrid.latency.median_ms),
      ms(r.hybrid.latency.p95_ms),
      r.hybrid.agreement_with_exact.toFixed(3),
    ]),
  );
  section(
    'Keyword mode: the served statement calls kbchat_keyword_candidates (migration 0012); inside = ' +
      'its body’s plan (as its owner, 1st question): how it finds chunks, Seq Scan nodes on ' +
      'chunks (loops), buffers, time; agreement = share of the owner’s top 10',
    [
      'case',
      'role',
      'inside',
      'seq scans (loops)',
      'shared hit',
      'inside ms',
      'statement ms',
      'p50 ms',
      'p95 ms',
      'agr. owner',
    ],
    saved.results.map((r) => {
      const inside = r.keyword_function;
      return [
        r.case,
        roleLabel(r.role),
        inside.keyword,
        `${inside.chunk_seq_scans} (${inside.chunk_seq_scan_loops})`,
        String(inside.shared_hit ?? ''),
        ms(inside.execution_ms),
        ms(r.plans.keyword.execution_ms),
        ms(r.keyword.latency.median_ms),
        ms(r.keyword.latency.p95_ms),
        r.keyword.agreement_with_owner === null ? '—' : r.keyword.agreement_with_owner.toFixed(3),
      ];
    }),
  );
  section(
    'EXPLAIN (ANALYZE, BUFFERS) of the first question, vector and hybrid',
    [
      'case',
      'role',
      'mode',
      'hnsw',
      'removed by filter',
      'seq scans',
      'final join',
      'shared hit',
      'exec ms',
    ],
    saved.results.flatMap((r) =>
      (['vector', 'hybrid'] as const).map((mode) => {
        const p = r.plans[mode];
        return [
          r.case,
          roleLabel(r.role),
          mode,
          p.hnsw ? 'yes' : p.collection_btree ? 'btree' : 'no',
          String(p.hnsw_removed_by_filter ?? '—'),
          `${p.chunk_seq_scans} (${p.chunk_seq_scan_loops})`,
          p.final_join,
          String(p.shared_hit ?? ''),
          ms(p.execution_ms),
        ];
      }),
    ),
  );
  if (saved.options.length) {
    section(
      'Options for filtered collections (layout B, app role under RLS, vector mode; exec ms: ' +
        'EXPLAIN ANALYZE of the 1st question)',
      [
        'option',
        'case',
        'plan (1st question)',
        'exec ms',
        'p50 ms',
        'p95 ms',
        'recall@10',
        'worst',
      ],
      saved.options.map((o) => [
        o.option,
        o.case,
        o.plan.summary,
        ms(o.plan.execution_ms),
        ms(o.latency.median_ms),
        ms(o.latency.p95_ms),
        o.recall ? o.recall.ties_ok.toFixed(3) : '—',
        o.recall ? o.recall.worst.toFixed(2) : '—',
      ]),
    );
    console.log('\n' + OPTIONS.map((o) => `${o.option}: ${o.detail}`).join('\n'));
  }
  if (saved.file_list.length) {
    section(
      'File list (store/files.ts listFiles) for a reader of one collection; the other 49 hold few, ' +
        'then many files; the statement alone, after the session check',
      [
        'other files',
        'role',
        'collection filter',
        'rows',
        'files read by',
        'exec ms',
        'p50 ms',
        'p95 ms',
      ],
      saved.file_list.map((f) => [
        String(f.other_files),
        roleLabel(f.role),
        f.collection_filter ? 'yes' : 'no',
        String(f.rows),
        f.files_access,
        f.execution_ms === null ? '—' : f.execution_ms.toFixed(2),
        f.latency.median_ms.toFixed(2),
        f.latency.p95_ms.toFixed(2),
      ]),
    );
  }
  if (saved.recommendation.length) {
    console.log('\nFrom these numbers:\n' + saved.recommendation.map((l) => `- ${l}`).join('\n'));
  }
}

/** What the numbers say, computed (not written in advance). */
export function recommend(saved: Saved): string[] {
  const out: string[] = [];
  const app = saved.results.filter((r) => r.role === 'app');
  const noHnsw = app.filter((r) => !r.plans.vector.hnsw).map((r) => r.case);
  out.push(
    noHnsw.length
      ? `vector mode under RLS does not use HNSW in: ${noHnsw.join(', ')}`
      : 'vector mode under RLS uses the HNSW index in every case (the policy is a filter on the index scan)',
  );
  const low = app.filter((r) => r.vector.recall.ties_ok < 0.99);
  out.push(
    low.length
      ? `recall@10 below 0.99 under RLS: ${low.map((r) => `${r.case} ${r.vector.recall.ties_ok}`).join(', ')}`
      : 'recall@10 ≥ 0.99 under RLS in every case',
  );
  const inside = (role: Role) => [
    ...new Set(saved.results.filter((r) => r.role === role).map((r) => r.keyword_function.keyword)),
  ];
  out.push(
    `keyword function inside: for the app role ${inside('app').join('/')}, for the owner ${inside('owner').join('/')}`,
  );
  for (const r of app) {
    const owner = saved.results.find((o) => o.case === r.case && o.role === 'owner');
    if (!owner) continue;
    out.push(
      `${r.case}: p50 under RLS vs owner + filter: vector ${ms(r.vector.latency.median_ms)} vs ` +
        `${ms(owner.vector.latency.median_ms)} ms, hybrid ${ms(r.hybrid.latency.median_ms)} vs ` +
        `${ms(owner.hybrid.latency.median_ms)} ms, keyword ${ms(r.keyword.latency.median_ms)} vs ` +
        `${ms(owner.keyword.latency.median_ms)} ms`,
    );
  }
  const byCase = new Map<string, OptionResult[]>();
  for (const o of saved.options) byCase.set(o.case, [...(byCase.get(o.case) ?? []), o]);
  for (const [c, list] of byCase) {
    const served = list.find((o) => o.option === 'served');
    const ok = list.filter((o) => (o.recall?.ties_ok ?? 0) >= 0.99);
    const best = ok.sort((x, y) => x.latency.p95_ms - y.latency.p95_ms)[0];
    out.push(
      best
        ? `${c}: fastest option with recall ≥ 0.99: ${best.option} (p95 ${ms(best.latency.p95_ms)} ms, ` +
            `recall ${best.recall?.ties_ok}); served: p95 ${ms(served?.latency.p95_ms ?? null)} ms, ` +
            `recall ${served?.recall?.ties_ok}`
        : `${c}: no option reaches recall 0.99`,
    );
  }
  const list = (others: number) =>
    saved.file_list.find(
      (f) => f.other_files === others && f.role === 'app' && !f.collection_filter,
    );
  const [few, many] = [...new Set(saved.file_list.map((f) => f.other_files))].map(list);
  if (few && many) {
    out.push(
      `file list under RLS, ${few.rows} visible files: p50 ${few.latency.median_ms.toFixed(2)} ms with ` +
        `${few.other_files} invisible files, ${many.latency.median_ms.toFixed(2)} ms with ${many.other_files} ` +
        `(${many.files_access})`,
    );
  }
  return out;
}
