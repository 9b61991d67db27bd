import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep } from 'cloudflare:workers';
import { createLogger } from '#shared/log/logger';
import { moduleName } from '#shared/module/module-app';
import { knowledgeConfig } from '../config';
import { KNOWLEDGE_MODULE } from '../module';
import {
  beginFile,
  configuredModel,
  embedBatch,
  finishJob,
  giveUp,
  loadJob,
  swapFile,
  type EmbeddedChunk,
  type ReindexContext,
} from '../reindex/steps';

export interface ReindexParams {
  jobId: string;
}

/**
 * A re-index job as a durable workflow (the steps are in reindex/steps.ts): for each of the
 * job's files in order, its chunks of another model are embedded again batch by batch into
 * chunk_reembeddings while the old vectors serve, then swapped in at once. Each step is retried
 * with backoff on its own; a restarted workflow replays what was done, and a new run of the
 * same job finds the files already swapped with nothing left to do.
 */
export class ReindexChunks extends WorkflowEntrypoint<KnowledgeEnv, ReindexParams> {
  override async run(event: Readonly<WorkflowEvent<ReindexParams>>, step: WorkflowStep) {
    const { jobId } = event.payload;
    const ctx: ReindexContext = {
      env: this.env,
      jobId,
      log: createLogger({
        module: moduleName(this.env, KNOWLEDGE_MODULE),
        workflow: event.instanceId,
        reindex_job: jobId,
      }),
    };
    const settings = knowledgeConfig(this.env);
    const config = {
      retries: {
        limit: settings.ingest.retryLimit,
        delay: settings.ingest.retryDelayMs,
        backoff: 'exponential',
      },
      timeout: '5 minutes',
    } as const;
    try {
      const job = await step.do('load the job', config, () => loadJob(ctx));
      if (!job) return;
      // Vectors are made with the configured model: a job planned for another one (the
      // configuration changed since) would stamp them wrongly.
      if (job.model !== configuredModel(this.env)) {
        const message = `The re-index was started for ${job.model}; ${configuredModel(this.env)} is configured now. Start it again.`;
        await step.do('failed: another model', config, () =>
          giveUp(ctx, { code: 'configuration_invalid', message }),
        );
        return;
      }
      let chunksDone = 0;
      for (const [i, fileId] of job.fileIds.entries()) {
        const { stale } = await step.do(`file ${i} begin`, config, () =>
          beginFile(ctx, fileId, job.model),
        );
        const embedded: EmbeddedChunk[] = [];
        // At most one batch more than the count: a chunk added meanwhile never loops forever.
        const most = Math.ceil(stale / settings.reindex.batchChunks) + 1;
        for (let n = 0; stale > 0 && n < most; n++) {
          const done = chunksDone;
          const batch = await step.do(`file ${i} batch ${n}`, config, () =>
            embedBatch(ctx, fileId, job.model, done),
          );
          embedded.push(...batch.embedded);
          if (batch.embedded.length < settings.reindex.batchChunks) break;
        }
        chunksDone += stale;
        const progress = { filesDone: i + 1, chunksDone };
        await step.do(`file ${i} swap`, config, () =>
          swapFile(ctx, fileId, job.model, embedded, progress),
        );
      }
      await step.do('done', config, () =>
        finishJob(ctx, { filesDone: job.fileIds.length, chunksDone }),
      );
      ctx.log.info('re-index done', { files: job.fileIds.length, chunks: chunksDone });
    } catch (err) {
      await step.do('failed', config, () => giveUp(ctx));
      ctx.log.warn('re-index failed', { error: String(err) });
    }
  }
}
