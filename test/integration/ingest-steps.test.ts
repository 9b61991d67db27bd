import { env } from 'cloudflare:workers';
import { inject } from 'vitest';
import { describe, expect, it } from 'vitest';
import { makeTextPdf } from '../../dev/fixtures/pdf-builder';
import { createLogger } from '../../shared/log/logger';
import { composePdfText, planChunks } from '../../workers/knowledge/src/pipeline/steps';
import { call, seededAdminToken } from '../helpers/auth';

// A workflow step may run again after its work committed: the stack stopped after the step's
// batch and before the workflow engine recorded the step as done (seen in
// test/reliability/restart.test.ts). Every step must then come to the same outcome.

const stepContext = () => ({
  env: { ...inject('stack').workerEnv, FILES: env.FILES } as unknown as KnowledgeEnv,
  log: createLogger({ module: 'ingest-steps.test' }),
});

describe('an ingestion step run again after it finished', () => {
  it('composing the text again gives the same pages, not "no text"', async () => {
    const token = await seededAdminToken();
    const form = new FormData();
    const pages = [`Step replay ${crypto.randomUUID()} one.`, 'Second page of the replay.'];
    form.append('file', new File([makeTextPdf(pages)], 'replay.pdf', { type: 'application/pdf' }));
    const res = await call('/moduleknowledge/upload', { method: 'POST', body: form, token });
    expect(res.status, await res.clone().text()).toBe(200);
    const { id, chunks } = (await res.json<{ data: { id: string; chunks: number } }>()).data;

    // The layouts are gone (the step's batch cleared them) and the pages are stored.
    expect(await composePdfText(stepContext(), id)).toEqual({ pages: 2 });
    expect(await planChunks(stepContext(), id)).toEqual({ chunks });
    const status = await call(`/moduleknowledge/file_status?id=${id}`, { token });
    expect((await status.json<{ data: { status: string } }>()).data.status).toBe('ready');
    await call(`/moduleknowledge/file?id=${id}`, { method: 'DELETE', token });
  });
});
