import type { Principal } from '#shared/auth/roles';
import type { knowledgeService } from '#shared/contracts/knowledge';
import { AppError } from '#shared/errors/app-error';
import type { ServiceImpl } from '#shared/service';
import { auditActor, knowledgeDb } from '../call';
import { fileRecorded } from '../store/audit';
import type { FileRow } from '../db/schema';
import {
  isCurrent,
  isOnItsWay,
  lineageRoot,
  restoreStatements,
  versionsOf,
} from '../store/versions';
import { fileFor } from './files';
import { listedFileView } from './views';

type Impl = ServiceImpl<typeof knowledgeService, KnowledgeEnv, Principal>;

/** A file's history, newest first: any version's id names it. */
export const GetFileVersions: Impl['GetFileVersions'] = async ({ id }, ctx) => {
  const { file } = await fileFor(ctx, id);
  const kdb = knowledgeDb(ctx);
  const rows = await kdb.run(versionsOf(kdb.db, lineageRoot(file)));
  return rows.map(versionView);
};

/**
 * An older ready version becomes the one searched again, at once; the current one is then
 * superseded by it. Not while a new version is on its way: that one would supersede the
 * version it was uploaded to replace, not the restored one.
 */
export const PostFileRestore: Impl['PostFileRestore'] = async ({ body: { id } }, ctx) => {
  const found = await fileFor(ctx, id, { manage: true });
  const target = found.file;
  if (target.status !== 'ready') throw new AppError('version_not_ready');
  const kdb = knowledgeDb(ctx);
  const root = lineageRoot(target);
  if (target.supersededBy !== null) {
    const versions = await kdb.run(versionsOf(kdb.db, root));
    if (versions.some(isOnItsWay)) throw new AppError('version_on_its_way');
    const [, [restored]] = await kdb.batch([
      ...restoreStatements(kdb.db, root, id),
      fileRecorded(kdb.db, id, {
        action: 'knowledge.version_restore',
        actor: auditActor(ctx),
        detail: { version: target.version },
      }),
    ]);
    ctx.log.info('file version restored', { file_id: id, version: target.version });
    return listedFileView({ ...found, file: restored ?? target, replacingName: null });
  }
  return listedFileView(found);
};

const versionView = (row: FileRow) => ({
  id: row.id,
  name: row.name,
  size: row.size,
  status: row.status,
  uploader: { id: row.uploaderId, username: row.uploaderName },
  created_at: row.createdAt.toISOString(),
  version: row.version,
  current: isCurrent(row),
  superseded_at: row.supersededAt?.toISOString() ?? null,
});
