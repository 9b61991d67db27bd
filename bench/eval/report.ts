// The compact printed report; the JSON file holds everything.
import type { Summary } from './metrics.ts';
import type { ModeRun } from './query-runner.ts';
import type { ModeScores } from './scoring.ts';

export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const format = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [format(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(format)].join(
    '\n',
  );
}

const num = (x: number | null, digits = 3) => (x === null ? '—' : x.toFixed(digits));

function groupRows(groups: Record<string, Summary>): string[][] {
  return Object.entries(groups).map(([name, s]) => {
    const refused = s.refusal.true_refusals + s.refusal.false_refusals;
    return [
      name,
      String(s.questions),
      num(s.hit_at_1),
      num(s.hit_at_5),
      num(s.mrr_at_10),
      num(s.questions ? refused / s.questions : null),
      num(s.refusal.precision),
      num(s.refusal.recall),
      num(s.median_best_similarity.answerable),
      num(s.median_best_similarity.no_answer),
    ];
  });
}

const GROUP_HEADER = [
  '',
  'n',
  'hit@1',
  'hit@5',
  'MRR@10',
  'refused',
  'refusal P',
  'refusal R',
  'best sim (ans.)',
  'best sim (none)',
];

export interface HnswReport {
  questions: number;
  recall_at_10: number;
  recall_at_10_ties_ok: number;
  plan: string;
  largest_similarity_gap: number;
}

export function printReport(input: {
  title: string;
  threshold: number;
  runs: readonly ModeRun[];
  scores: ReadonlyMap<string, ModeScores>;
  hnsw: HnswReport | { skipped: string };
}): void {
  const { runs, scores, threshold } = input;
  console.log(`\n${input.title}\n`);
  console.log(
    table(
      ['mode', 'hit@1', 'hit@5', 'MRR@10', 'refusal P', 'refusal R', 'median ms'],
      runs.map((run) => {
        const s = scores.get(run.mode)?.overall;
        if (!s) return [run.mode, '—', '—', '—', '—', '—', '—'];
        return [
          run.mode,
          num(s.hit_at_1),
          num(s.hit_at_5),
          num(s.mrr_at_10),
          num(s.refusal.precision),
          num(s.refusal.recall),
          run.latency ? run.latency.median_ms.toFixed(0) : '—',
        ];
      }),
    ),
  );
  for (const run of runs) {
    if (!run.support.honoured) console.log(`${run.mode}: ${run.support.reason}`);
  }
  for (const run of runs) {
    const s = scores.get(run.mode);
    if (!s) continue;
    console.log(`\n${run.mode} mode, by category and by language (refusals at ${threshold})\n`);
    console.log(table(GROUP_HEADER, [...groupRows(s.by_category), ...groupRows(s.by_language)]));
    const o = s.overall.refusal;
    console.log(
      `refusals: ${o.true_refusals} right, ${o.false_refusals} of answerable questions, ` +
        `${o.missed_refusals} no_answer questions answered`,
    );
    console.log(
      `refusal precision / recall by threshold: ${s.threshold_sweep
        .map((t) => `${t.threshold}: ${num(t.precision, 2)} / ${num(t.recall, 2)}`)
        .join(', ')}`,
    );
  }
  const h = input.hnsw;
  console.log(
    'skipped' in h
      ? `\nHNSW recall: skipped (${h.skipped})`
      : `\nHNSW recall@10 of the served vector query against exact search: ${h.recall_at_10.toFixed(3)} ` +
          `(ties counted: ${h.recall_at_10_ties_ok.toFixed(3)}) over ${h.questions} questions; ` +
          `planner: ${h.plan}; largest similarity gap served vs exact ${h.largest_similarity_gap.toExponential(1)}`,
  );
  console.log(
    '\nhit@k, MRR@10: answerable questions only; a hit is a result on an expected page of the ' +
      'expected file. refusal P/R: refusing is the positive class (a no_answer question should ' +
      'be refused, no other); "refused": share of the group refused; "best sim": median of ' +
      'the highest similarity per question, answerable (ans.) and no_answer (none).',
  );
}
