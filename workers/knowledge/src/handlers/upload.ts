import { ingestDb } from '#shared/db/request-db';
import { sqlStateOf } from '#shared/db/sql-state';
import { isDatabaseUnavailable } from '#shared/db/unavailable';
import { z } from 'zod';
import { AppError } from '#shared/errors/app-error';
import { errorDetail, isErrorCode } from '#shared/errors/catalogue';
import { knowledgeConfig } from '../config';
import { auditActor, knowledgeDb, type KnowledgeCall } from '../call';
import { fileRecorded } from '../store/audit';
import { principalOf } from '#shared/auth/principal';
import * as schema from '../db/schema';
import { DEFAULT_COLLECTION_ID, type FileRow } from '../db/schema';
import { detectFormat, type DetectedFormat } from '../ingest/detect-format';
import { DocumentError, unsupportedFormat } from '../ingest/document-error';
import { sanitiseFileName } from '../ingest/file-name';
import { sha256Hex } from '../ingest/sha256';
import { reviveSoon, startIngest } from '../pipeline/watchdog';
import { fileById, fileBySha, insertFile, type KnowledgeDb } from '../store/files';
import { setProgress } from '../store/ingest';
import { deleteOriginal, putOriginal } from '../store/originals';
import { collectionFor } from './collection-access';
import { fileLimitRefusal } from './file-limits';
import { removeFile } from './remove-file';
import { POLL_MS, pollDelay } from './upload-poll';
import { newVersionOf, type NewVersion } from './new-version';
import { uploadView } from './views';
import { failedAttempts, isOnItsWay, versionsOf } from '../store/versions';

/**
 * Check → deduplicate → store the original and a `queued` file row → start the ingestion
 * workflow → answer: at once (202) when the client asked not to wait, otherwise when the file
 * is ready, as uploads always answered. Whatever fails before the workflow is running leaves
 * nothing behind.
 */
export async function upload(
  { file, collection_id, replaces }: { file: File; collection_id?: string; replaces?: string },
  ctx: KnowledgeCall,
) {
  const config = knowledgeConfig(ctx.env);
  const user = principalOf(ctx);
  // A new version (upload?replaces=) goes into the collection of the file it replaces.
  const replacing = replaces ?? replacesQuery(ctx);
  const version = replacing ? await newVersionOf(ctx, replacing, collection_id) : undefined;
  const collectionId = version?.collectionId ?? collection_id ?? DEFAULT_COLLECTION_ID;
  // Before hashing and storing: a collection the caller cannot upload to costs nothing more.
  if (collection_id && !version) await collectionFor(ctx, collection_id, 'editor');
  if (file.size > config.ingest.maxUploadBytes) throw tooLarge(config.ingest.maxUploadBytes);
  const bytes = new Uint8Array(await file.arrayBuffer());
  const detected = formatOf(bytes);
  const sha256 = await sha256Hex(bytes);
  const wait = !wantsAsync(ctx);
  const kdb = knowledgeDb(ctx);

  const [existing] = await kdb.run(fileBySha(kdb.db, collectionId, sha256));
  if (existing?.status === 'failed') await removeFile(ctx, kdb, existing);
  else if (existing) {
    if (version && isOlderVersion(existing, version)) throw new AppError('version_same_as_older');
    // An older version is no longer listed: "already there" would name a file no one sees.
    if (!version && existing.supersededBy !== null) {
      throw new AppError('upload_same_as_older_version');
    }
    return answer(ctx, existing, true, wait);
  }

  const id = crypto.randomUUID();
  await putOriginal(ctx.env.FILES, id, bytes, sha256, detected.contentType);
  let row: FileRow;
  try {
    [[row]] = (await kdb.batch([
      insertFile(kdb.db, {
        id,
        name: sanitiseFileName(file.name, detected.format),
        size: bytes.length,
        sha256,
        collectionId,
        format: detected.format,
        contentType: detected.contentType,
        status: 'queued',
        pages: 0,
        chunks: 0,
        uploaderId: user.id,
        uploaderName: user.username,
        ...(version
          ? {
              ...version.carried,
              lineageId: version.lineageId,
              version: version.version,
              replacesId: version.replacesId,
            }
          : {}),
      }),
      fileRecorded(kdb.db, id, {
        action: 'knowledge.upload',
        actor: auditActor(ctx),
        detail: {
          collection_id: collectionId,
          size: bytes.length,
          sha256,
          ...(version ? { version: version.version, replaces: version.replacesId } : {}),
        },
      }),
    ])) as [[FileRow], unknown];
  } catch (err) {
    await deleteOriginal(ctx.env.FILES, id);
    // Two uploads of the same bytes at once: the loser answers the winner's file.
    if (sqlStateOf(err) === '23505') {
      const [winner] = await kdb.run(fileBySha(kdb.db, collectionId, sha256));
      if (winner) return answer(ctx, winner, true, wait);
    }
    // The collection's file or byte limit, or the uploader's bytes (usage_limits), counted by
    // the insert's triggers.
    throw fileLimitRefusal(err) ?? err;
  }
  if (version) await onlyVersionOnItsWay(ctx, kdb, version, row);
  try {
    const workflowId = await startIngest(ctx.env.INGEST, id);
    await kdb.run(setProgress(kdb.db, id, { workflowId }));
  } catch (err) {
    await removeFile(ctx, kdb, row);
    throw err;
  }
  if (version) await dropFailedAttempts(ctx, kdb, version, id);
  ctx.log.info('file queued', {
    file_id: id,
    format: detected.format,
    size: bytes.length,
    ...(version ? { replaces: version.replacesId, version: version.version } : {}),
  });
  return answer(ctx, row, false, wait);
}

/** What the upload is, or the 4xx that says why it cannot be read (before anything is stored). */
function formatOf(bytes: Uint8Array): DetectedFormat {
  let detected: DetectedFormat | undefined;
  try {
    detected = detectFormat(bytes);
  } catch (err) {
    throw err instanceof DocumentError ? err.toAppError() : err;
  }
  if (!detected) throw unsupportedFormat().toAppError();
  return detected;
}

/** `?replaces=<file id>`, as the form's `replaces` field: the file this upload is a new version of. */
function replacesQuery(ctx: KnowledgeCall): string | undefined {
  const value = ctx.http?.req.query('replaces');
  if (value === undefined || value === '') return undefined;
  if (!z.uuid().safeParse(value).success) {
    throw new AppError('validation_failed', { detail: 'replaces: not a file id (a UUID).' });
  }
  return value;
}

/**
 * The same bytes as a version of the same document other than the one replaced: restoring it
 * says what the user means (the replaced one itself answers as a duplicate, as ever).
 */
const isOlderVersion = (existing: FileRow, version: NewVersion) =>
  existing.id !== version.replacesId &&
  (existing.id === version.lineageId || existing.lineageId === version.lineageId);

/**
 * Two new versions of the same file uploaded at once both passed the check before either was
 * stored: each, once stored, looks again, and one that finds another on its way withdraws
 * (both may: then neither is kept, and the user uploads again).
 */
async function onlyVersionOnItsWay(
  ctx: KnowledgeCall,
  kdb: KnowledgeDb,
  version: NewVersion,
  row: FileRow,
) {
  const others = await kdb.run(versionsOf(kdb.db, version.lineageId));
  if (!others.some((other) => other.id !== row.id && isOnItsWay(other))) return;
  await removeFile(ctx, kdb, row);
  throw new AppError('version_on_its_way');
}

/** Failed attempts at a new version of the document: this upload takes their place. */
async function dropFailedAttempts(
  ctx: KnowledgeCall,
  kdb: KnowledgeDb,
  version: NewVersion,
  newId: string,
) {
  const failed = await kdb.run(
    failedAttempts(kdb.db, version.lineageId, [newId, version.replacesId]),
  );
  for (const row of failed) await removeFile(ctx, kdb, row);
}

/** `?async=true` or `Prefer: respond-async` (RFC 7240): answer before the file is ready. */
function wantsAsync(ctx: KnowledgeCall): boolean {
  const req = ctx.http?.req;
  if (!req) return false;
  if (/^(true|1)$/i.test(req.query('async') ?? '')) return true;
  return /(^|,)\s*respond-async\s*(,|;|$)/i.test(req.header('Prefer') ?? '');
}

async function answer(ctx: KnowledgeCall, row: FileRow, duplicate: boolean, wait: boolean) {
  if (!wait) {
    ctx.http?.status(202);
    ctx.http?.header('Preference-Applied', 'respond-async');
    return uploadView(row, duplicate);
  }
  const done = await untilDone(ctx, row.id);
  if (done.status === 'failed') {
    // As uploads always answered: the failure, with nothing of the file left behind.
    await removeFile(ctx, knowledgeDb(ctx), done);
    throw failureOf(done);
  }
  return uploadView(done, duplicate);
}

// The database away for longer than this while an upload waits: the upload answers 503, and
// the file (stored, its ingest durable) finishes when the database is back.
const OUTAGE_MS = 30_000;

/**
 * Waits for the workflow to finish the file, polling its row. The ingest is durable, so a
 * database outage meanwhile is waited out (the workflow's steps are retried too) rather than
 * answered at once: the client then still gets the file's outcome.
 */
async function untilDone(ctx: KnowledgeCall, id: string): Promise<FileRow> {
  // The file's own scope: a poll for one file, not a session check per poll.
  const kdb: KnowledgeDb = ingestDb(knowledgeConfig(ctx.env).database, schema, id);
  let unavailableSince: number | undefined;
  for (let attempt = 0; ; attempt++) {
    if (ctx.signal.aborted) throw new AppError('client_gone');
    let row: FileRow | undefined;
    try {
      [row] = await kdb.run(fileById(kdb.db, id));
      unavailableSince = undefined;
    } catch (err) {
      if (!isDatabaseUnavailable(err)) throw err;
      unavailableSince ??= Date.now();
      if (Date.now() - unavailableSince > OUTAGE_MS) throw err;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS * 5));
      continue;
    }
    if (!row) throw new AppError('file_deleted');
    if (row.status === 'ready' || row.status === 'failed') return row;
    // A workflow that gave up during an outage is revived (the file's row stopped moving).
    reviveSoon(ctx.env, ctx.log, ctx.waitUntil);
    await new Promise((resolve) => setTimeout(resolve, pollDelay(attempt)));
  }
}

/**
 * The error an upload answers for a file that failed: its code's status, its recorded detail.
 * A code this build does not know (recorded by a later one) is a 500.
 */
export function failureOf(row: FileRow): AppError {
  const code = row.errorCode ?? 'ingest_failed';
  const detail = row.errorMessage ?? undefined;
  return isErrorCode(code)
    ? new AppError(code, { detail })
    : AppError.foreign(500, code, detail ?? errorDetail('ingest_failed'));
}

export function tooLarge(limit: number) {
  return new AppError('file_too_large', { detail: `The file is larger than ${limit} bytes.` });
}
