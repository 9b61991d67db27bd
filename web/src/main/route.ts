/** The logged-in screens, by URL hash. */
export type Route =
  | { page: 'chat' }
  | { page: 'users' }
  | { page: 'unhelpful' }
  | { page: UserPage }
  | { page: AdminPage }
  | { page: 'collection'; id: string; section: CollectionSection }
  /** A file's chunks, as the machine searches them: `#/chunks/<file_id>?page=<n>`. */
  | { page: 'chunks'; id: string; at?: number }
  | DocumentRoute;

/**
 * A collection's screens (`#/collection/<id>/<section>`): its members and settings (the
 * default), the retrieval test, its official answers and its gap report.
 */
export const COLLECTION_SECTIONS = ['members', 'retrieval', 'official', 'gaps'] as const;
export type CollectionSection = (typeof COLLECTION_SECTIONS)[number];

/** The link of a collection's screen. */
export const collectionLink = (id: string, section: CollectionSection = 'members') =>
  section === 'members' ? `#/collection/${id}` : `#/collection/${id}/${section}`;

/**
 * The document viewer over the chat: a file at a page, with a passage highlighted. Shareable:
 * `#/doc/<file_id>?page=<n>&chunk=<chunk_id>`; whoever may not read the file sees not found.
 */
export interface DocumentRoute {
  page: 'doc';
  /** The file's id; as written in the link when it is `malformed`. */
  id: string;
  /**
   * The link names no file (what follows `#/doc/` is not a file id): the viewer says the
   * document does not exist, as it does for a file that is gone or not the reader's.
   */
  malformed?: true;
  /** 1-based; the passage's page when a chunk is named and no page is. */
  at?: number;
  chunk?: number;
}

/** The user's own pages, in the user menu: `#/account`, `#/keys`, `#/usage`. */
export const USER_PAGES = ['account', 'keys', 'usage'] as const;
export type UserPage = (typeof USER_PAGES)[number];

/**
 * The super admins' pages of the whole service, by their links (`#/admin/usage`…). Anyone may
 * open the link: the service refuses everyone else, and the page says so.
 */
export const ADMIN_PAGES = {
  'admin-usage': '#/admin/usage',
  audit: '#/admin/audit',
  limits: '#/admin/limits',
} as const;
export type AdminPage = keyof typeof ADMIN_PAGES;

/** The link of a page that has no parameters. */
export const pageLink = (page: UserPage | AdminPage | 'users' | 'unhelpful') =>
  page in ADMIN_PAGES ? ADMIN_PAGES[page as AdminPage] : `#/${page}`;

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

export function routeOf(hash: string): Route {
  if (hash === '#/users') return { page: 'users' };
  if (hash === '#/unhelpful') return { page: 'unhelpful' };
  const user = USER_PAGES.find((page) => hash === `#/${page}`);
  if (user) return { page: user };
  const admin = (Object.keys(ADMIN_PAGES) as AdminPage[]).find(
    (page) => hash === ADMIN_PAGES[page],
  );
  if (admin) return { page: admin };
  const collection = new RegExp(
    `^#/collection/(${UUID})(?:/(${COLLECTION_SECTIONS.join('|')}))?$`,
    'i',
  ).exec(hash);
  if (collection) {
    const section = (collection[2]?.toLowerCase() ?? 'members') as CollectionSection;
    return { page: 'collection', id: collection[1]!.toLowerCase(), section };
  }
  const chunks = new RegExp(`^#/chunks/(${UUID})(?:\\?(.*))?$`, 'i').exec(hash);
  if (chunks) {
    const query = new URLSearchParams(chunks[2] ?? '');
    return { page: 'chunks', id: chunks[1]!.toLowerCase(), ...positive('at', query.get('page')) };
  }
  const doc = /^#\/doc\/([^?]*)(?:\?(.*))?$/.exec(hash);
  if (doc) {
    const id = doc[1]!.toLowerCase();
    if (!new RegExp(`^${UUID}$`).test(id)) return { page: 'doc', id, malformed: true };
    const query = new URLSearchParams(doc[2] ?? '');
    return {
      page: 'doc',
      id,
      ...positive('at', query.get('page')),
      ...positive('chunk', query.get('chunk')),
    };
  }
  return { page: 'chat' };
}

/** The deep link of a document (at a page, with a passage). */
export function documentLink(fileId: string, at?: number, chunk?: number | null): string {
  const query = new URLSearchParams();
  if (at !== undefined) query.set('page', String(at));
  if (chunk !== undefined && chunk !== null) query.set('chunk', String(chunk));
  const search = query.toString();
  return `#/doc/${fileId}${search ? `?${search}` : ''}`;
}

/** The link of a file's chunks screen (at a page of its chunks). */
export const chunksLink = (fileId: string, at?: number) =>
  at !== undefined && at > 1 ? `#/chunks/${fileId}?page=${at}` : `#/chunks/${fileId}`;

function positive<K extends string>(key: K, value: string | null): Partial<Record<K, number>> {
  if (value === null || !/^\d{1,9}$/.test(value)) return {};
  const n = Number(value);
  return n >= 1 ? ({ [key]: n } as Record<K, number>) : {};
}

/** Two routes with one key are one screen (the viewer's pages and passages are one screen). */
export const routeKey = (route: Route) =>
  route.page === 'collection' || route.page === 'doc' || route.page === 'chunks'
    ? `${route.page}:${route.id}`
    : route.page;
