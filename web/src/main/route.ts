/** The logged-in screens, by URL hash. */
export type Route =
  { page: 'chat' } | { page: 'users' } | { page: 'unhelpful' } | { page: 'collection'; id: string };

export function routeOf(hash: string): Route {
  if (hash === '#/users') return { page: 'users' };
  if (hash === '#/unhelpful') return { page: 'unhelpful' };
  const collection = /^#\/collection\/([0-9a-f-]{36})$/i.exec(hash);
  if (collection) return { page: 'collection', id: collection[1]! };
  return { page: 'chat' };
}

export const routeKey = (route: Route) => (route.page === 'collection' ? route.id : route.page);
