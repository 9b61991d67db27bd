import type { Collection, KnowledgeFile, User } from './api/services';
import { t, type Localized } from './i18n/bind';

/**
 * The built-in collection every user reads (migration 0010). Chat sources name their
 * collection by id and name only; this tells the shared one apart without a lookup.
 */
export const SHARED_COLLECTION_ID = '00000000-0000-0000-0000-000000000000';

/**
 * What the page offers by the caller's role. The service decides (it answers 403 or 404
 * otherwise); the page only leaves out controls that would be refused.
 */
export const mayAddFiles = (collection: Collection) =>
  collection.role === 'editor' || collection.role === 'owner';

export const mayManageMembers = (collection: Collection) =>
  !collection.shared && collection.role === 'owner';

/**
 * Deleting, retrying or moving a file. In the shared collection every user is an editor, but
 * of their own uploads only (a super admin owns it); elsewhere any editor or owner may.
 */
export function mayManageFile(me: User, collection: Collection, file: KnowledgeFile): boolean {
  if (collection.shared) return file.uploader.id === me.id || me.role === 'SUPER_ADMIN';
  return mayAddFiles(collection);
}

/** A collection's name as the page shows it: the shared one's in the reader's language. */
export const collectionName = (collection: { id: string; name: string }): Localized =>
  collection.id === SHARED_COLLECTION_ID
    ? t((m) => m.collections.shared)
    : t(() => collection.name);
