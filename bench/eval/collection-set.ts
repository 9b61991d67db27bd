// `npm run eval -- --collection <id>`: a collection's own saved test set (saved from the
// retrieval test screen) run by the service itself (POST /moduleknowledge/retrieval_test_run,
// the same search as GET /moduleknowledge/query), per mode: each question's rank and
// similarity, then hit rate and MRR. Like the operator run, never follows a redirect and
// times out.
import type { Mode } from './knowledge-api.ts';
import type { CollectionTarget } from './options.ts';
import { table } from './report.ts';
import { logIn } from './service-login.ts';

interface SavedTest {
  id: number;
  question: string;
  file_id: string;
  file_name: string | null;
  page: number | null;
}

export interface SetRun {
  mode: Mode;
  top: number;
  cases: { id: number; rank: number | null; similarity: number | null }[];
  hit_rate: number;
  mrr: number;
}

/** A run searches every saved question once: allow for a few hundred of them. */
const RUN_TIMEOUT_MS = 10 * 60_000;

async function call<T>(target: CollectionTarget, token: string, route: string, body?: unknown) {
  const res = await fetch(`${target.url}${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    redirect: 'error',
    signal: AbortSignal.timeout(RUN_TIMEOUT_MS),
  });
  const text = await res.text();
  if (!res.ok) {
    throw new Error(`${route.split('?')[0]} answered ${res.status}: ${text.slice(0, 300)}`);
  }
  return (JSON.parse(text) as { data: T }).data;
}

/** The saved set and its run in each mode. */
export async function runCollectionSet(target: CollectionTarget, modes: readonly Mode[]) {
  const token = target.token ?? (await logIn(target.url, target.username, target.password));
  const tests = await call<SavedTest[]>(
    target,
    token,
    `/moduleknowledge/retrieval_tests?collection_id=${target.id}`,
  );
  const runs: SetRun[] = [];
  for (const mode of modes) {
    runs.push(
      await call<SetRun>(target, token, '/moduleknowledge/retrieval_test_run', {
        collection_id: target.id,
        mode,
        top: target.top,
      }),
    );
  }
  return { tests, runs };
}

const clip = (text: string, width: number) =>
  text.length > width ? `${text.slice(0, width - 1)}…` : text;

/** The printed report: per question its expected passage and rank in each mode, then totals. */
export function collectionReport(
  title: string,
  tests: readonly SavedTest[],
  runs: readonly SetRun[],
): string {
  const lines = [title, ''];
  const header = ['question', 'expected', ...runs.flatMap((r) => [`${r.mode} rank`, 'similarity'])];
  const rows = tests.map((test) => [
    clip(test.question, 48),
    `${clip(test.file_name ?? '(file deleted)', 32)}${test.page === null ? '' : ` p.${test.page}`}`,
    ...runs.flatMap((run) => {
      const found = run.cases.find((c) => c.id === test.id);
      if (!found) return ['not run', '—'];
      return [
        found.rank === null ? 'miss' : String(found.rank),
        found.similarity === null ? '—' : found.similarity.toFixed(3),
      ];
    }),
  ]);
  lines.push(table(header, rows), '');
  lines.push(
    table(
      ['mode', 'cases', 'top', 'hit rate', 'MRR'],
      runs.map((run) => [
        run.mode,
        String(run.cases.length),
        String(run.top),
        run.hit_rate.toFixed(3),
        run.mrr.toFixed(3),
      ]),
    ),
  );
  return lines.join('\n');
}
