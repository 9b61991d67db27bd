// The built-in evaluation's service: an isolated `npm run dev` stack (fresh data folder in the
// temp directory, offline model, seeded local admin) with the evaluation corpus uploaded, and
// the labels checked again against the text the service extracted from the PDFs.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { launchDev } from '../../dev/stack/launch-dev.ts';
import { LOCAL_ADMIN } from '../../dev/stack/seed.ts';
import { logIn } from './service-login.ts';
import { documentPdf, EVAL_DOCUMENTS } from './documents.ts';
import { listFiles, uploadPdf, type KnowledgeApi } from './knowledge-api.ts';
import { checkLabels, pagesOfStoredContent } from './labels.ts';
import { EVAL_QUESTIONS } from './questions.ts';

export interface IsolatedCorpus {
  api: KnowledgeApi;
  dataDir: string;
  /** The offline model endpoint, e.g. http://127.0.0.1:41235 (its /v1/embeddings). */
  modelBase: string;
  startup_s: number;
  uploads: { file: string; id: string; pages: number; chunks: number }[];
}

/**
 * Starts the stack and uploads the corpus. `onCleanup` receives what must run on every way
 * out (stop the stack, remove the folder), registered before anything can fail.
 */
export async function startIsolatedCorpus(
  onCleanup: (cleanup: () => Promise<void>) => void,
  log: (message: string) => void,
): Promise<IsolatedCorpus> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'kbchat-eval-'));
  onCleanup(() => rm(dataDir, { recursive: true, force: true }));
  log(`starting an isolated stack (data in ${dataDir}); this takes a minute or two`);
  const t0 = performance.now();
  const stack = await launchDev({ dataDir, env: { LOG_LEVEL: 'warn' } });
  onCleanup(async () => {
    await stack.stop();
  });
  const startup_s = Math.round((performance.now() - t0) / 100) / 10;
  log(`stack healthy at ${stack.baseUrl} after ${startup_s} s`);

  const api = {
    base: stack.baseUrl,
    token: await logIn(stack.baseUrl, LOCAL_ADMIN.username, LOCAL_ADMIN.password),
  };
  const uploads: IsolatedCorpus['uploads'] = [];
  for (const document of EVAL_DOCUMENTS) {
    const stored = await uploadPdf(api, documentPdf(document), document.fileName);
    if (stored.duplicate || stored.pages !== document.pages.length) {
      throw new Error(`${document.fileName}: stored as ${JSON.stringify(stored)}`);
    }
    uploads.push({
      file: document.fileName,
      id: stored.id,
      pages: stored.pages,
      chunks: stored.chunks,
    });
  }
  log(
    `uploaded ${uploads.length} documents: ${uploads.reduce((n, u) => n + u.pages, 0)} pages, ` +
      `${uploads.reduce((n, u) => n + u.chunks, 0)} chunks`,
  );

  // The labels were checked against the source text before the start; the service answers
  // from the text it extracted, so check them against that too.
  const stored = await listFiles(api, true);
  const extracted = new Map(stored.map((f) => [f.name, pagesOfStoredContent(f.content ?? '')]));
  const problems = checkLabels(EVAL_QUESTIONS, extracted);
  if (problems.length) {
    throw new Error(
      `the labels do not hold for the text the service extracted:\n${problems
        .map((p) => `  ${p.question}: ${p.problem}`)
        .join('\n')}`,
    );
  }
  log('labels hold for the extracted text');
  return {
    api,
    dataDir,
    modelBase: stack.modelControlUrl.replace(/\/_control$/, ''),
    startup_s,
    uploads,
  };
}
