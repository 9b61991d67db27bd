import type { Principal } from './roles';

/** The logged-in user of a call whose route requires one (a route without @role(guest)). */
export function principalOf(ctx: { principal?: Principal; route: string }): Principal {
  if (!ctx.principal) throw new Error(`route ${ctx.route} ran without a principal`);
  return ctx.principal;
}
