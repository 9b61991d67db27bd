import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep } from 'cloudflare:workers';
import { createLogger } from '#shared/log/logger';
import { knowledgeConfig } from '../config';
import { KNOWLEDGE_MODULE } from '../module';
import { moduleName } from '#shared/module/module-app';
import { readDocumentMetadata } from './metadata-step';
import {
  begin,
  composePdfText,
  extractPages,
  fail,
  FileGone,
  finish,
  indexChunks,
  planChunks,
  planOcr,
  readScannedPages,
  type StepContext,
} from './steps';

export interface IngestParams {
  fileId: string;
}

/**
 * Ingests one uploaded file as a durable workflow: each step (a batch of pages, a batch of
 * chunks) is retried with backoff on its own and its result persisted, so a crash, a deploy
 * or a restart resumes where the work stopped, and no step needs more than one invocation's
 * CPU and memory. The steps themselves are in steps.ts.
 */
export class IngestFile extends WorkflowEntrypoint<KnowledgeEnv, IngestParams> {
  override async run(event: Readonly<WorkflowEvent<IngestParams>>, step: WorkflowStep) {
    const { fileId } = event.payload;
    const ctx: StepContext = {
      env: this.env,
      log: createLogger({
        module: moduleName(this.env, KNOWLEDGE_MODULE),
        workflow: event.instanceId,
        file_id: fileId,
      }),
    };
    const ingest = knowledgeConfig(this.env).ingest;
    const config = {
      retries: { limit: ingest.retryLimit, delay: ingest.retryDelayMs, backoff: 'exponential' },
      timeout: '5 minutes',
    } as const;
    // OCR takes seconds a page (OCR_TIMEOUT_MS each at most): more time per try.
    const ocrConfig = { ...config, timeout: '15 minutes' } as const;
    try {
      const plan = await step.do('read the file', config, () =>
        begin(ctx, fileId, event.instanceId),
      );
      for (const range of plan.batches) {
        await step.do(`pages ${range.first}-${range.last}`, config, () =>
          extractPages(ctx, fileId, range),
        );
      }
      // A small PDF, or a format without pages, was read whole (and mostly planned) already.
      if (!plan.textStored && plan.format === 'pdf') {
        // Pages without a usable text layer are read by OCR, a few per step; the service's
        // own retries are the step's (ocr_unavailable while it waits, ocr_gave_up after).
        const ocr = await step.do('plan OCR', config, () => planOcr(ctx, fileId));
        let before = 0;
        for (const pages of ocr.steps) {
          const done = before;
          await step.do(`OCR pages ${pages.join(',')}`, ocrConfig, () =>
            readScannedPages(ctx, fileId, pages, done),
          );
          before += pages.length;
        }
        await step.do('page text', config, () => composePdfText(ctx, fileId));
      }
      // What the document says of itself and how it relates to others, once its text is read.
      await step.do('document metadata', config, () => readDocumentMetadata(ctx, fileId));
      // Named apart from the earlier 'plan chunks' (whose result had no batches): an ingest
      // that was under way across a deploy plans again instead of replaying that result.
      const { chunks, batches } =
        plan.chunkPlan ??
        (await step.do('plan chunk batches', config, () => planChunks(ctx, fileId)));
      for (const [i, batch] of batches.entries()) {
        const last = i === batches.length - 1;
        // The last batch makes the file ready; named apart, so that an ingest under way across
        // a deploy, whose last batch ran before that, runs it again (it is idempotent).
        const name = `chunks ${batch.from}-${batch.to - 1}${last ? ', ready' : ''}`;
        await step.do(name, config, () => indexChunks(ctx, fileId, batch, { last }));
      }
      if (batches.length === 0) await step.do('ready', config, () => finish(ctx, fileId));
      ctx.log.info('file ingested', { pages: plan.pages, chunks });
    } catch (err) {
      if (err instanceof FileGone || (err as Error | undefined)?.name === 'FileGone') return;
      await step.do('failed', config, () => fail(ctx, fileId));
      ctx.log.warn('file failed', { error: String(err) });
    }
  }
}
