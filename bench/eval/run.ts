// npm run eval: retrieval quality of GET /moduleknowledge/query, per mode (vector, hybrid,
// keyword), per question category and per language, and the HNSW index's recall against exact
// search. `npm run eval -- --help` for the options; README "Retrieval evaluation" for more.
//
// Built-in (no --url): an isolated stack with the generated corpus, the built-in questions, the
// labels checked against the source text and against the text the service extracted.
// Operator (--url, --questions): someone's own questions against a running service.
// Collection (--collection): a collection's saved test set, run by a running service.
//
// Output: a compact table, and everything (per question too) in bench-results/eval.json.
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { collectionReport, runCollectionSet } from './collection-set.ts';
import { logIn } from './service-login.ts';
import { EVAL_DOCUMENTS } from './documents.ts';
import { devDatabaseSettings, embed, exactNeighbours, servedPlan } from './exact-search.ts';
import { largestSimilarityGap, recallAtK } from './hnsw-recall.ts';
import { startIsolatedCorpus, type IsolatedCorpus } from './isolated-corpus.ts';
import { listFiles, type KnowledgeApi } from './knowledge-api.ts';
import { checkLabels } from './labels.ts';
import { outcomeOf, scoreMode, type EvalItem, type ModeScores } from './scoring.ts';
import { isLoopback, parseOptions, USAGE, type EvalOptions } from './options.ts';
import { readOperatorItems, unknownLocations } from './operator-questions.ts';
import { runModes, type ModeRun } from './query-runner.ts';
import { printReport, type HnswReport } from './report.ts';
import { EVAL_QUESTIONS } from './questions.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Results per query; hit@1, hit@5 and MRR@10 all come from these. */
const TOP = 10;
/** The database's hnsw.ef_search (migration 0016), which the isolated stack runs with. */
const EF_SEARCH = 600;
const RUN_DEADLINE_MS = 60 * 60_000;
const CLEANUP_TIMEOUT_MS = 40_000;

let options: EvalOptions;
try {
  options = parseOptions(process.argv.slice(2), root);
} catch (err) {
  const message = (err as Error).message;
  console.error(message === USAGE ? message : `eval: ${message}`);
  process.exit(message === USAGE ? 0 : 2);
}

// Clean-up on every way out: normal end, error, deadline, Ctrl-C.
const cleanups: (() => Promise<void>)[] = [];
async function runCleanups(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) {
    await Promise.race([
      cleanup().catch((err: unknown) => console.error(`eval: clean-up failed: ${String(err)}`)),
      new Promise<void>((resolve) => setTimeout(resolve, CLEANUP_TIMEOUT_MS).unref()),
    ]);
  }
}
let exiting = false;
async function exitWith(code: number, message: string): Promise<never> {
  console.error(`eval: ${message}`);
  if (!exiting) {
    exiting = true;
    await runCleanups();
  }
  process.exit(code);
}
const deadline = setTimeout(
  () => void exitWith(1, `gave up after ${RUN_DEADLINE_MS / 60_000} minutes`),
  RUN_DEADLINE_MS,
);
deadline.unref();
process.on('SIGINT', () => void exitWith(130, 'interrupted'));
process.on('SIGTERM', () => void exitWith(143, 'terminated'));

const log = (message: string) =>
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`);
const round = (x: number | null, digits = 4) =>
  x === null ? null : Math.round(x * 10 ** digits) / 10 ** digits;

function builtInItems(): EvalItem[] {
  return EVAL_QUESTIONS.map((q) => ({
    id: q.id,
    language: q.language,
    category: q.category,
    question: q.question,
    expected: q.expected.map((e) => ({ file_name: e.file, pages: e.pages })),
  }));
}

async function operatorTarget(operator: NonNullable<EvalOptions['operator']>) {
  const items = await readOperatorItems(operator.questions);
  if (!operator.url.startsWith('https:') && !isLoopback(new URL(operator.url))) {
    log('warning: plain http to a remote service sends the password or token unencrypted');
  }
  let token = operator.token ?? process.env.KBCHAT_TOKEN;
  if (!token) {
    const { KBCHAT_USERNAME: username, KBCHAT_PASSWORD: password } = process.env;
    if (!username || !password) {
      throw new Error('give --token, or set KBCHAT_TOKEN, or KBCHAT_USERNAME and KBCHAT_PASSWORD');
    }
    token = await logIn(operator.url, username, password);
  }
  const api: KnowledgeApi = { base: operator.url, token };
  const problems = unknownLocations(items, await listFiles(api, false));
  if (problems.length) {
    throw new Error(
      `the questions name files or pages the service does not hold:\n  ${problems.join('\n  ')}`,
    );
  }
  return { items, api };
}

async function measureHnsw(
  isolated: IsolatedCorpus | undefined,
  items: readonly EvalItem[],
  vectorRun: ModeRun | undefined,
): Promise<HnswReport | { skipped: string }> {
  if (!isolated) return { skipped: 'needs the database; only with the isolated stack' };
  if (!vectorRun?.results) return { skipped: 'vector mode was not run' };
  log('exact search in the database for every question');
  const vectors = await embed(
    isolated.modelBase,
    items.map((item) => item.question),
  );
  const settings = await devDatabaseSettings(isolated.dataDir);
  const exact = await exactNeighbours(settings, vectors, TOP);
  const plan = await servedPlan(settings, vectors[0]!, TOP, EF_SEARCH);
  const recalls = exact.map((truth, i) => recallAtK(vectorRun.results![i]!, truth, TOP));
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return {
    questions: items.length,
    recall_at_10: round(mean(recalls.map((r) => r.ids)))!,
    recall_at_10_ties_ok: round(mean(recalls.map((r) => r.ties_ok)))!,
    plan,
    largest_similarity_gap: Math.max(
      ...exact.map((truth, i) => largestSimilarityGap(vectorRun.results![i]!, truth)),
    ),
  };
}

/** --collection: the collection's saved set, run by the service; printed and written out. */
async function collectionMain(target: NonNullable<EvalOptions['collection']>): Promise<void> {
  const startedAt = new Date();
  log(`the saved test set of collection ${target.id} at ${target.url}`);
  const { tests, runs } = await runCollectionSet(target, options.modes);
  const capped = runs.some((run) => run.cases.length < tests.length)
    ? ` (the service runs the first ${runs[0]!.cases.length})`
    : '';
  const title =
    `Retrieval test set: collection ${target.id} at ${target.url}; ` +
    `${tests.length} saved questions${capped}; top ${target.top}`;
  console.log(`\n${collectionReport(title, tests, runs)}`);
  await mkdir(path.dirname(options.out), { recursive: true });
  const output = {
    started_at: startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    target: { kind: 'collection test set', url: target.url, collection_id: target.id },
    tests,
    runs,
  };
  await writeFile(options.out, `${JSON.stringify(output, null, 2)}\n`);
  console.log(`\nwritten to ${path.relative(process.cwd(), options.out) || options.out}`);
}

async function main(): Promise<void> {
  if (options.collection) return collectionMain(options.collection);
  const startedAt = new Date();
  let items: EvalItem[];
  let api: KnowledgeApi;
  let isolated: IsolatedCorpus | undefined;
  if (options.operator) {
    ({ items, api } = await operatorTarget(options.operator));
    log(`${items.length} questions from ${options.operator.questions} against ${api.base}`);
  } else {
    const source = new Map(EVAL_DOCUMENTS.map((d) => [d.fileName, d.pages]));
    const problems = checkLabels(EVAL_QUESTIONS, source);
    if (problems.length) {
      throw new Error(
        `label check failed:\n${problems.map((p) => `  ${p.question}: ${p.problem}`).join('\n')}`,
      );
    }
    log(`labels hold for the source text (${EVAL_QUESTIONS.length} questions)`);
    isolated = await startIsolatedCorpus((cleanup) => cleanups.push(cleanup), log);
    api = isolated.api;
    items = builtInItems();
  }

  const runs = await runModes(api, items, options.modes, TOP, log);
  const outcomes = new Map(
    runs.flatMap((run) =>
      run.results
        ? [
            [
              run.mode,
              run.results.map((r, i) => outcomeOf(items[i]!, r, options.threshold, TOP)),
            ] as const,
          ]
        : [],
    ),
  );
  const scores = new Map<string, ModeScores>(
    [...outcomes].map(([mode, list]) => [mode, scoreMode(items, list)]),
  );
  const hnsw = await measureHnsw(
    isolated,
    items,
    runs.find((r) => r.mode === 'vector'),
  );
  await runCleanups();

  const count = (key: (item: EvalItem) => string) =>
    items.reduce<Record<string, number>>((acc, item) => {
      acc[key(item)] = (acc[key(item)] ?? 0) + 1;
      return acc;
    }, {});
  const languages = Object.entries(count((i) => i.language))
    .map(([language, n]) => `${n} ${language}`)
    .join(', ');
  const title = isolated
    ? `Retrieval evaluation: isolated stack, offline model; ${items.length} questions (${languages}); ` +
      `${isolated.uploads.length} documents, ${isolated.uploads.reduce((n, u) => n + u.pages, 0)} pages, ` +
      `${isolated.uploads.reduce((n, u) => n + u.chunks, 0)} chunks; top ${TOP}, threshold ${options.threshold}`
    : `Retrieval evaluation: ${api.base}; ${items.length} questions (${languages}); top ${TOP}, threshold ${options.threshold}`;
  printReport({ title, threshold: options.threshold, runs, scores, hnsw });

  const output = {
    started_at: startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    machine: { cpus: os.cpus().length, node: process.version, load_average: os.loadavg() },
    target: isolated
      ? {
          kind: 'isolated stack, offline model',
          startup_s: isolated.startup_s,
          documents: isolated.uploads,
        }
      : { kind: 'operator', url: api.base, questions_file: options.operator!.questions },
    top: TOP,
    threshold: options.threshold,
    questions: {
      total: items.length,
      by_language: count((i) => i.language),
      by_category: count((i) => i.category),
    },
    modes: Object.fromEntries(
      runs.map((run) => [
        run.mode,
        {
          honoured: run.support.honoured,
          reason: run.support.reason,
          latency: run.latency,
          scores: scores.get(run.mode),
        },
      ]),
    ),
    hnsw: { ...hnsw, ef_search: EF_SEARCH },
    per_question: items.map((item, i) => ({
      ...item,
      modes: Object.fromEntries(
        runs.flatMap((run) =>
          run.results
            ? [
                [
                  run.mode,
                  {
                    ...outcomes.get(run.mode)![i]!,
                    results: run.results[i]!.map(({ content: _content, ...rest }) => rest),
                  },
                ],
              ]
            : [],
        ),
      ),
    })),
  };
  await mkdir(path.dirname(options.out), { recursive: true });
  await writeFile(options.out, `${JSON.stringify(output, null, 2)}\n`);
  console.log(`\nwritten to ${path.relative(process.cwd(), options.out) || options.out}`);
}

try {
  await main();
} catch (err) {
  await exitWith(1, err instanceof Error ? err.message : String(err));
}
clearTimeout(deadline);
