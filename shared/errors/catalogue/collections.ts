import { z } from 'zod';
import { errorGroup } from './entry.ts';

/** Collections, their members and the files in them. */
export const collectionErrors = errorGroup({
  /** An upload or a move that would pass the collection's file or byte limit (usage_limits). */
  collection_limit_reached: {
    status: 413,
    en: 'The collection is full: it holds as many files or bytes as allowed. Delete files from it, or ask an administrator to raise the limit.',
    zh: '该资料集已满：文件数或存储容量已达上限。请删除其中的文件，或请管理员提高上限。',
    // What workers/knowledge/src/handlers/file-limits.ts puts in the problem.
    members: z.object({
      limit: z
        .enum(['collection_max_files', 'collection_max_bytes'])
        .optional()
        .describe('The limit the file would pass.'),
      used: z
        .int()
        .nonnegative()
        .optional()
        .meta({ description: 'Files or bytes the collection holds.', example: 500 }),
      allowed: z.int().positive().optional().meta({ description: 'The limit.', example: 500 }),
    }),
  },
  /** An upload that would take its uploader past their stored bytes (usage_limits.user_max_bytes). */
  storage_limit_reached: {
    status: 413,
    en: 'You have stored as many bytes of documents as allowed, over all collections. Delete files you uploaded (older versions count too), or ask an administrator to raise the limit.',
    zh: '您上传的文件已达个人存储上限（所有资料集合计）。请删除您上传的文件（旧版本也计入），或请管理员提高上限。',
    // What workers/knowledge/src/handlers/file-limits.ts puts in the problem.
    members: z.object({
      limit: z.enum(['user_max_bytes']).optional().describe('The limit the file would pass.'),
      used: z
        .int()
        .nonnegative()
        .optional()
        .meta({ description: 'Bytes the uploader has stored.', example: 524288000 }),
      allowed: z
        .int()
        .positive()
        .optional()
        .meta({ description: 'The limit.', example: 524288000 }),
    }),
  },
  last_owner: {
    status: 409,
    en: 'A collection keeps at least one owner: make another member owner first.',
    zh: '资料集至少要保留一位所有者：请先将另一名成员设为所有者。',
  },
  already_member: {
    status: 409,
    en: 'That user is already a member.',
    zh: '该用户已经是成员。',
  },
  shared_collection: {
    status: 409,
    en: 'The shared collection has no members and cannot be deleted: every user reads it.',
    zh: '公共资料集没有成员，也不能删除：所有用户都能查看它。',
  },
  duplicate_file: {
    status: 409,
    en: 'The same file is already in that collection.',
    zh: '该资料集中已有相同的文件。',
  },
  file_deleted: {
    status: 409,
    en: 'The file was deleted while it was being processed.',
    zh: '该文件在处理过程中已被删除。',
  },
  /** upload?replaces= and file_restore: a version of the same file is still being processed. */
  version_on_its_way: {
    status: 409,
    en: 'A new version of this file is still being processed. Wait until it is ready or has failed, or delete it.',
    zh: '该文件的新版本仍在处理中。请等待其就绪或失败，或将其删除。',
  },
  /** upload?replaces= names a version that a newer one replaced. */
  version_superseded: {
    status: 409,
    en: 'That version has been replaced by a newer one. Upload the new version against the current version of the file.',
    zh: '该版本已被更新的版本取代。请针对文件的当前版本上传新版本。',
  },
  /** upload?replaces= with the bytes of an older version of the same file. */
  version_same_as_older: {
    status: 409,
    en: 'This file is the same as an older version of the file. Restore that version from the file’s versions instead.',
    zh: '该文件与此文件的某个旧版本相同。请在版本历史中恢复该版本。',
  },
  /**
   * A plain upload (no `replaces`) of the same bytes as an older version of a document in the
   * collection: a duplicate answer would name a file the list no longer shows.
   */
  upload_same_as_older_version: {
    status: 409,
    en: 'This file is an older version of a document already in the collection. To use it again, restore it from that document’s versions.',
    zh: '该文件是资料集中某份文件的旧版本。如需重新使用，请在该文件的版本历史中恢复。',
  },
  /** file_restore of a version that is not ready (on its way or failed). */
  version_not_ready: {
    status: 409,
    en: 'Only a version that was processed successfully can be restored.',
    zh: '只有处理成功的版本才能恢复。',
  },
  /** upload?replaces= with a collection_id other than the replaced file's. */
  version_other_collection: {
    status: 400,
    en: 'A new version goes into the collection of the file it replaces.',
    zh: '新版本只能上传到被替换文件所在的资料集。',
  },
  file_too_large: {
    status: 413,
    overLimitBody: true,
    documentFault: true,
    en: 'The file is larger than the service accepts.',
    zh: '文件超过了服务允许的大小。',
  },
});
