import { ingestDb } from '#shared/db/request-db';
import type { Logger } from '#shared/log/logger';
import { knowledgeConfig } from '../config';
import * as schema from '../db/schema';
import type { FileStatus } from '../db/schema';
import { claimStalledFiles, setWorkflow } from '../store/ingest';
import type { IngestParams } from './ingest-workflow';

/** The workflow binding, as the knowledge worker's Env declares it. */
type IngestWorkflow = Workflow<IngestParams>;

/** Starts ingesting a file; `attempt` > 0 for a retry or a revival (a new instance id). */
export async function startIngest(
  workflow: IngestWorkflow,
  fileId: string,
  attempt = 0,
): Promise<string> {
  const id = attempt === 0 ? fileId : `${fileId}-${Date.now().toString(36)}`;
  const instance = await workflow.create({ id, params: { fileId } });
  return instance.id;
}

/**
 * Stops a file's workflow (the file is being deleted) while it is still at work. A ready or
 * failed file's workflow has ended or is ending by itself: asking it to terminate would only
 * cost two calls and, from a finished instance, an error (the local engine reports it as an
 * uncaught exception).
 */
export async function stopIngest(
  workflow: IngestWorkflow,
  file: { workflowId: string | null; status: FileStatus },
) {
  if (!file.workflowId || (file.status !== 'queued' && file.status !== 'processing')) return;
  try {
    await (await workflow.get(file.workflowId)).terminate();
  } catch {
    // already complete, errored, terminated or unknown: nothing runs any more
  }
}

const ALIVE = new Set(['queued', 'running', 'waiting', 'paused', 'waitingForPause']);
// At most this many files are looked after per pass; the next pass takes the rest.
const PER_PASS = 20;

/**
 * Files whose ingestion stopped moving (no step wrote progress for INGEST_STALE_SECONDS) get
 * their workflow going again. On Cloudflare a workflow survives deploys and restarts by
 * itself, so this is a safety net (the cron trigger runs it every minute); under `wrangler
 * dev` it is what resumes an ingest after the stack was stopped: the local engine keeps a
 * running instance's finished steps but does not wake it up again. A stale instance that
 * still exists is paused and resumed (it continues after its last finished step); one that
 * ended without finishing the file is replaced by a new instance (every step is idempotent,
 * so it redoes at most one step's work). Rows are claimed first, so two passes at once never
 * revive the same file twice.
 *
 * A file revived INGEST_MAX_REVIVALS times without a step making progress in between is not
 * revived again: its ingest dies in the same place every time (a document that takes its
 * parser's isolate down), and reviving it would only take the isolate down again. The claim
 * fails it (`ingest_gave_up`) and its workflow is stopped.
 */
export async function reviveStalledIngests(env: KnowledgeEnv, log: Logger): Promise<number> {
  const config = knowledgeConfig(env);
  // It acts for no user and sees no file through the policies: claiming stalled files is a
  // function of its own (migrations 0009, 0018), and each revived file is then updated in its
  // scope.
  const claimed = await claimStalledFiles(config.database, {
    staleSeconds: config.ingest.staleSeconds,
    limit: PER_PASS,
    maxRevivals: config.ingest.maxRevivals,
  });
  for (const file of claimed) {
    if (file.gave_up) {
      await stopIngest(env.INGEST, { workflowId: file.workflow_id, status: 'processing' });
      log.warn('stalled ingest given up', { file_id: file.id });
      continue;
    }
    const revived = await wakeUp(env.INGEST, file.workflow_id);
    if (!revived) {
      const workflowId = await startIngest(env.INGEST, file.id, 1);
      const kdb = ingestDb(config.database, schema, file.id);
      await kdb.run(setWorkflow(kdb.db, file.id, workflowId));
    }
    log.info('stalled ingest revived', { file_id: file.id, resumed: revived });
  }
  return claimed.length;
}

async function wakeUp(workflow: IngestWorkflow, workflowId: string | null): Promise<boolean> {
  if (!workflowId) return false;
  try {
    const instance = await workflow.get(workflowId);
    const { status } = await instance.status();
    if (!ALIVE.has(status)) return false;
    await instance.pause().catch(() => undefined);
    await instance.resume();
    return true;
  } catch {
    return false;
  }
}

let lastPass = 0;
const MIN_INTERVAL_MS = 15_000;

/**
 * A pass at most every 15 s per isolate, from requests that look at files (health, list,
 * status): after a local restart the first of them gets stalled ingests going.
 */
export function reviveSoon(
  env: KnowledgeEnv,
  log: Logger,
  waitUntil: (p: Promise<unknown>) => void,
) {
  const now = Date.now();
  if (now - lastPass < MIN_INTERVAL_MS) return;
  lastPass = now;
  waitUntil(
    reviveStalledIngests(env, log).catch((err: unknown) =>
      log.warn('reviving stalled ingests failed', { error: String(err) }),
    ),
  );
}
