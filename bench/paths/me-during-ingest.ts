// "/me p95 under 50 ms while a 500-page PDF ingests": one upload of a generated 500-page PDF
// and, until it answers, GET /moduleauth/me one call after another. Only the upload request
// and /me are used, so the section holds however ingestion is done (in the request today, a
// durable Workflow later: then the upload answers early and the /me calls that overlap the
// ingest need a longer window; see `upload_s`).
//
// Meanwhile a second loop runs /me's own statement straight on the database front (`pg`),
// to tell where a slow /me waits: behind the ingest's hold on the database (the statement is
// slow too) or for the workers' CPU (only /me is slow).
//
// A PDF the service refuses as too much work (422 pdf_too_complex) ingests nothing: the
// attempt is kept in the report and the same measurement runs again with half the pages (at
// most twice), so that there is a figure for an ingest that does happen.
import { performance } from 'node:perf_hooks';
import { makeTextPdf, manyPagesText } from '../../dev/fixtures/pdf-builder.ts';
import type { ProxyStats } from '../../dev/stack/proxy-stats.ts';
import { stats, type Stats } from '../stats.ts';
import { proxyStats, statsDifference } from './round-trips.ts';
import { me, upload, type Service } from './service-calls.ts';

const UPLOAD_TIMEOUT_MS = 300_000;
const IDLE_BASELINE_CALLS = 50;
const FALLBACKS = 2;

interface Options {
  pages: number;
  runId: string;
  proxyAddress: string;
  /** /me's own statement, with nothing in between. */
  statement: () => Promise<unknown>;
}

export async function meDuringIngest(service: Service, options: Options): Promise<MeDuringIngest> {
  const idle: number[] = [];
  for (let i = 0; i < IDLE_BASELINE_CALLS; i++) idle.push(await timed(() => me(service)));
  const attempts: IngestAttempt[] = [];
  let pages = options.pages;
  for (let i = 0; i <= FALLBACKS; i++) {
    const attempt = await attemptIngest(service, { ...options, pages });
    attempts.push(attempt);
    const refused = 'error' in attempt.upload && attempt.upload.error.includes('pdf_too_complex');
    if (!refused || pages < 2) break;
    pages = Math.floor(pages / 2);
  }
  return { me_idle_before: stats(idle), attempts };
}

export interface MeDuringIngest {
  /** /me one call after another just before the first upload. */
  me_idle_before: Stats;
  /** The first is the size asked for; the others follow a pdf_too_complex refusal. */
  attempts: IngestAttempt[];
}

export interface IngestAttempt {
  pages: number;
  pdf_bytes: number;
  upload_s: number;
  upload: { pages: number; chunks: number; duplicate: boolean } | { error: string };
  me_during_upload: Stats;
  /** /me's session statement on `pg`, in a loop of its own during the upload. */
  statement_during_upload: Stats;
  /** The upload's own database traffic (the /me calls' one round trip each taken out). */
  upload_traffic: ProxyStats;
}

async function attemptIngest(service: Service, options: Options): Promise<IngestAttempt> {
  // The fixture's register pages, with this run's id so that deduplication never answers.
  const texts = manyPagesText(options.pages).map((text) =>
    text.replace(
      /^Register page (\d+) of (\d+)\./,
      `Register page $1 of $2, run ${options.runId}.`,
    ),
  );
  const pdf = makeTextPdf(texts, { title: `Register ${options.runId} (${options.pages} pages)` });

  const before = await proxyStats(options.proxyAddress);
  const started = performance.now();
  let finished = false;
  const uploading = upload(service, pdf, `register-${options.runId}.pdf`, UPLOAD_TIMEOUT_MS)
    .then((answer) => ({ pages: answer.pages, chunks: answer.chunks, duplicate: answer.duplicate }))
    .catch((err: unknown) => ({ error: err instanceof Error ? err.message : String(err) }))
    .finally(() => {
      finished = true;
    });
  const loop = async (work: () => Promise<unknown>) => {
    const samples: number[] = [];
    while (!finished) samples.push(await timed(work));
    return samples;
  };
  const [during, statement] = await Promise.all([loop(() => me(service)), loop(options.statement)]);
  const answer = await uploading;
  const upload_s = (performance.now() - started) / 1000;
  const traffic = statsDifference(await proxyStats(options.proxyAddress), before);
  traffic.sqlRequests -= during.length;
  traffic.sqlStatements -= during.length;
  return {
    pages: options.pages,
    pdf_bytes: pdf.length,
    upload_s,
    upload: answer,
    me_during_upload: stats(during),
    statement_during_upload: stats(statement),
    upload_traffic: traffic,
  };
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}
