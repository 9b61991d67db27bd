import { sqlStateOf } from '#shared/db/sql-state';
import { AppError, notFound } from '#shared/errors/app-error';
import { collectionFor, requireReadable } from './collection-access';
import { fileLimitRefusal } from './file-limits';
import { accessDenied } from '#shared/service';
import { auditActor, knowledgeDb, type KnowledgeCall } from '../call';
import { fileIn, fileRecorded } from '../store/audit';
import type { FileRow } from '../db/schema';
import { reviveSoon, startIngest } from '../pipeline/watchdog';
import {
  fileById,
  fileContents,
  fileForCaller,
  listFiles,
  moveFile,
  requeueFile,
  type CallerFile,
} from '../store/files';
import { getOriginal } from '../store/originals';
import { parseByteRange, type FileDownload } from '#shared/service/file-download';
import { callValidity, validityIn } from './metadata';
import { removeFile } from './remove-file';
import { fileFilterCondition, givenFilters, type SearchFilters } from '../store/search-filters';
import { fileView, listedFileView, progressView } from './views';

export async function list(
  params: {
    file_id?: string[];
    collection_id?: string[];
    with_content?: boolean;
  } & Partial<SearchFilters>,
  ctx: KnowledgeCall,
) {
  reviveSoon(ctx.env, ctx.log, ctx.waitUntil);
  await requireReadable(ctx, params.collection_id);
  const filter = {
    ids: params.file_id,
    collectionIds: params.collection_id,
    documents: fileFilterCondition(givenFilters(params)),
  };
  const kdb = knowledgeDb(ctx);
  if (!params.with_content) {
    const rows = await kdb.run(listFiles(kdb.db, filter));
    const validity = await callValidity(
      ctx,
      rows.map((row) => row.file.id),
    );
    return rows.map((row) => listedFileView(row, undefined, validity.get(row.file.id)));
  }
  // The text of many long files is more than one HTTP answer carries: a session reads it.
  return kdb.transaction(async (tx) => {
    const rows = await listFiles(tx, filter);
    const ids = rows.map((row) => row.file.id);
    const contents = await fileContents(tx, ids);
    const validity = await validityIn(tx, ids);
    return rows.map((row) =>
      listedFileView(row, contents.get(row.file.id) ?? '', validity.get(row.file.id)),
    );
  });
}

/**
 * The file as the caller may see it, or 404 (a file in a collection they cannot read is not
 * there for them; with `collection`, nor is one in another collection). With `manage`, only
 * for whoever may delete it (else 403): editors and owners of its collection; in the shared
 * collection its uploader or a SUPER_ADMIN. The policies enforce the same; this says why.
 */
export async function fileFor(
  ctx: KnowledgeCall,
  id: string,
  options: { manage?: boolean; collection?: string } = {},
): Promise<CallerFile> {
  const kdb = knowledgeDb(ctx);
  const [found] = await kdb.run(fileForCaller(kdb.db, id));
  if (!found || (options.collection && found.file.collectionId !== options.collection)) {
    throw notFound('file');
  }
  if (options.manage && !found.manageable) throw accessDenied('may not manage this file');
  return found;
}

/** A file gone, with its chunks and original; a file being processed stops being processed. */
export async function remove(
  { id, collection_id }: { id: string; collection_id?: string },
  ctx: KnowledgeCall,
) {
  const { file } = await fileFor(ctx, id, { manage: true, collection: collection_id });
  await removeFile(ctx, knowledgeDb(ctx), file, {
    action: 'knowledge.delete',
    actor: auditActor(ctx),
    detail: { collection_id: file.collectionId, status: file.status },
  });
  ctx.log.info('file deleted', { file_id: id, status: file.status });
}

/**
 * The original. A Range request (one range) gets those bytes only, read as such from R2: the
 * document viewer's PDF.js fetches the pages it shows of a long PDF, not the whole file.
 */
export async function download(
  { id, collection_id }: { id: string; collection_id?: string },
  ctx: KnowledgeCall,
): Promise<FileDownload> {
  const { file: row } = await fileFor(ctx, id, { collection: collection_id });
  const file = { contentType: row.contentType, filename: row.name, acceptRanges: true };
  // The row's size is the stored original's: both are the uploaded bytes' length.
  const range = parseByteRange(ctx.http?.req.header('range'), row.size);
  if (range === 'unsatisfiable') {
    return { ...file, body: '', unsatisfiable: { total: row.size } };
  }
  const original = await getOriginal(ctx.env.FILES, id, range);
  if (!original) throw notFound('file');
  if (range) {
    const length = range.end - range.start + 1;
    return { ...file, body: original.body, size: length, range: { ...range, total: row.size } };
  }
  return { ...file, body: original.body, size: original.size };
}

export async function status({ id }: { id: string }, ctx: KnowledgeCall) {
  reviveSoon(ctx.env, ctx.log, ctx.waitUntil);
  const { file } = await fileFor(ctx, id);
  return progressView(file, (await callValidity(ctx, [id])).get(id));
}

const PROGRESS_POLL_MS = 500;

/** The file's progress now, then each change, until it is ready or failed. */
export async function progress({ id }: { id: string }, ctx: KnowledgeCall) {
  const first = (await fileFor(ctx, id)).file;
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
  const { file: row } = await fileFor(ctx, body.id, { manage: true });
  if (row.status !== 'failed') return progressView(row);
  const kdb = knowledgeDb(ctx);
  const workflowId = await startIngest(ctx.env.INGEST, row.id, 1);
  const [updated] = await kdb.run(requeueFile(kdb.db, row.id, workflowId));
  return progressView(updated ?? row);
}

/**
 * A file, with its chunks (the (file, collection) foreign key cascades), into another
 * collection: for whoever may manage it where it is and is an editor or owner of the target.
 */
export async function move(
  { body }: { body: { id: string; collection_id: string } },
  ctx: KnowledgeCall,
) {
  const { file, replacingName } = await fileFor(ctx, body.id, { manage: true });
  const target = await collectionFor(ctx, body.collection_id, 'editor');
  if (file.collectionId === target.id) {
    return fileView(file, target.name, undefined, undefined, replacingName);
  }
  const kdb = knowledgeDb(ctx);
  try {
    const [[moved]] = await kdb.batch([
      moveFile(kdb.db, file.id, target.id),
      fileRecorded(
        kdb.db,
        file.id,
        {
          action: 'knowledge.move',
          actor: auditActor(ctx),
          detail: { from: file.collectionId, to: target.id, to_name: target.name },
        },
        fileIn(target.id),
      ),
    ]);
    if (!moved) throw notFound('file');
    ctx.log.info('file moved', { file_id: file.id, collection_id: target.id });
    return fileView(moved, target.name, undefined, undefined, replacingName);
  } catch (err) {
    if (sqlStateOf(err) === '23505') {
      throw new AppError('duplicate_file');
    }
    // The target's file or byte limit (usage_limits), counted by the update's trigger.
    throw fileLimitRefusal(err) ?? err;
  }
}
