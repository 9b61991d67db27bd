import { AppError } from '#shared/errors/app-error';
import { knowledgeDb, type KnowledgeCall } from '../call';
import type { FileRow } from '../db/schema';
import { isOnItsWay, lineageRoot, personMetadata, versionsOf } from '../store/versions';
import { fileFor } from './files';

/** What a new version of a file takes from the one it replaces. */
export interface NewVersion {
  collectionId: string;
  lineageId: string;
  version: number;
  replacesId: string;
  /** The replaced file's fields a person set (they carry over). */
  carried: Partial<FileRow>;
}

/**
 * `upload?replaces=`: the file a new version replaces, for whoever may manage it (404 when
 * they cannot read it, 403 when they may not manage it). It must be the current version (or a
 * failed first upload), with no other version on its way; the new one goes into its collection.
 */
export async function newVersionOf(
  ctx: KnowledgeCall,
  replaces: string,
  collectionId: string | undefined,
): Promise<NewVersion> {
  const { file: old } = await fileFor(ctx, replaces, { manage: true });
  if (collectionId !== undefined && collectionId !== old.collectionId) {
    throw new AppError('version_other_collection');
  }
  if (old.supersededBy !== null) throw new AppError('version_superseded');
  const kdb = knowledgeDb(ctx);
  const versions = await kdb.run(versionsOf(kdb.db, lineageRoot(old)));
  if (versions.some(isOnItsWay)) throw new AppError('version_on_its_way');
  // A failed attempt at a new version never served: the version to replace is the one that does.
  if (old.status === 'failed' && old.replacesId !== null) {
    throw new AppError('version_superseded', {
      detail:
        'That version failed and never replaced the current one: upload the new version against the current version of the file.',
    });
  }
  return {
    collectionId: old.collectionId,
    lineageId: lineageRoot(old),
    // After the highest, not the replaced one's: a restored older version may be replaced.
    version: Math.max(...versions.map((v) => v.version), old.version) + 1,
    replacesId: old.id,
    carried: personMetadata(old),
  };
}
