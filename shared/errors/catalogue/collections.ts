import { errorGroup } from './entry.ts';

/** Collections, their members and the files in them. */
export const collectionErrors = errorGroup({
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
  file_too_large: {
    status: 413,
    en: 'The file is larger than the service accepts.',
    zh: '文件超过了服务允许的大小。',
  },
});
