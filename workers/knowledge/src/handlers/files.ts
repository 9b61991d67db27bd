import { eq } from 'drizzle-orm';
import { notFound } from '../../../../shared/errors/app-error';
import { accessDenied } from '../../../../shared/service';
import { knowledgeDb, principalOf, type KnowledgeCall } from '../context';
import { files, type FileRow } from '../db/schema';
import { reviveSoon, startIngest } from '../pipeline/watchdog';
import { fileById, fileContents, listFiles } from '../store/files';
import { getOriginal } from '../store/originals';
import { removeFile } from './remove-file';
import { fileView, progressView } from './views';

export async function list(
  params: { file_id?: string[]; with_content?: boolean },
  ctx: KnowledgeCall,
) {
  reviveSoon(ctx.env, ctx.log, ctx.waitUntil);
  const ids = params.file_id;
  const kdb = knowledgeDb(ctx);
  if (!params.with_content) {
    return (await kdb.run(listFiles(kdb.db, ids))).map((row) => fileView(row));
  }
  // The text of many long files is more than one HTTP answer carries: a session reads it.
  return kdb.transaction(async (tx) => {
    const rows = await listFiles(tx, ids);
    const contents = await fileContents(
      tx,
      rows.map((row) => row.id),
    );
    return rows.map((row) => fileView(row, contents.get(row.id) ?? ''));
  });
}

/** The file, or 404; with `manage`, only for its uploader or a SUPER_ADMIN (else 403). */
async function fileFor(ctx: KnowledgeCall, id: string, manage = false): Promise<FileRow> {
  const kdb = knowledgeDb(ctx);
  const [row] = await kdb.run(fileById(kdb.db, id));
  if (!row) throw notFound('No such file.');
  const user = principalOf(ctx);
  if (manage && row.uploaderId !== user.id && user.role !== 'SUPER_ADMIN') {
    throw accessDenied('not the uploader');
  }
  return row;
}

/** The uploader or a SUPER_ADMIN; a file being processed stops being processed. */
export async function remove({ id }: { id: string }, ctx: KnowledgeCall) {
  const row = await fileFor(ctx, id, true);
  await removeFile(ctx, knowledgeDb(ctx), row);
  ctx.log.info('file deleted', { file_id: id, status: row.status });
}

export async function download({ id }: { id: string }, ctx: KnowledgeCall) {
  const row = await fileFor(ctx, id);
  const original = await getOriginal(ctx.env.FILES, id);
  if (!original) throw notFound('No such file.');
  return {
    body: original.body,
    contentType: row.contentType,
    filename: row.name,
    size: original.size,
  };
}

export async function status({ id }: { id: string }, ctx: KnowledgeCall) {
  reviveSoon(ctx.env, ctx.log, ctx.waitUntil);
  return progressView(await fileFor(ctx, id));
}

const PROGRESS_POLL_MS = 500;

/** The file's progress now, then each change, until it is ready or failed. */
export async function progress({ id }: { id: string }, ctx: KnowledgeCall) {
  const first = await fileFor(ctx, id);
  const kdb = knowledgeDb(ctx);
  return (async function* () {
    let row: FileRow | undefined = first;
    let last = '';
    while (row) {
      const view = progressView(row);
      const seen = JSON.stringify(view);
      if (seen !== last) {
        yield view;
        last = seen;
      }
      if (row.status === 'ready' || row.status === 'failed' || ctx.signal.aborted) return;
      await new Promise((resolve) => setTimeout(resolve, PROGRESS_POLL_MS));
      [row] = await kdb.run(fileById(kdb.db, id));
    }
  })();
}

/** A failed file, ingested again from what is already done. */
export async function retry({ body }: { body: { id: string } }, ctx: KnowledgeCall) {
  const row = await fileFor(ctx, body.id, true);
  if (row.status !== 'failed') return progressView(row);
  const kdb = knowledgeDb(ctx);
  const workflowId = await startIngest(ctx.env.INGEST, row.id, 1);
  const [updated] = await kdb.run(
    kdb.db
      .update(files)
      .set({
        status: 'queued',
        errorCode: null,
        errorMessage: null,
        workflowId,
        updatedAt: new Date(),
      })
      .where(eq(files.id, row.id))
      .returning(),
  );
  return progressView(updated ?? row);
}
