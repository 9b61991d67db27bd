/** Which module worker serves which path prefix on the shared domain. */
export const MODULE_ROUTES = [
  { prefix: '/moduleauth', binding: 'AUTH' },
  { prefix: '/moduleknowledge', binding: 'KNOWLEDGE' },
  { prefix: '/modulechat', binding: 'CHAT' },
] as const;

export type ModuleBinding = (typeof MODULE_ROUTES)[number]['binding'];

/** The binding for a path, matching whole segments only (`/moduleauthx` is not auth's). */
export function moduleFor(pathname: string): ModuleBinding | undefined {
  return MODULE_ROUTES.find(
    ({ prefix }) => pathname === prefix || pathname.startsWith(`${prefix}/`),
  )?.binding;
}
