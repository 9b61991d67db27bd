import type { AccessRequest } from '../service';

/** The request's waitUntil on HTTP; RPC callers get none, so cleanup is awaited there. */
export function waitUntilOf(
  access: Pick<AccessRequest<unknown>, 'caller'>,
): ((promise: Promise<unknown>) => void) | undefined {
  if (access.caller.transport !== 'http') return undefined;
  const ctx = access.caller.context.executionCtx;
  return (promise) => ctx.waitUntil(promise);
}
