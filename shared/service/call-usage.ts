/**
 * Model tokens a callee spent for its caller (knowledge embedding a chat's question), carried
 * back beside an RPC result so that the caller can count them as its own user's usage. Kept
 * per call context, which rpcEntrypoint makes for each call; an HTTP call has none.
 */
export interface CallUsage {
  embedding_tokens: number;
}

const meters = new WeakMap<object, CallUsage>();

/** Starts counting for a call (rpcEntrypoint does, for every RPC call). */
export function startCallUsage(context: object): CallUsage {
  const usage = { embedding_tokens: 0 };
  meters.set(context, usage);
  return usage;
}

/** Adds embedding tokens to the call's count; a call nobody counts for (HTTP) ignores them. */
export function addEmbeddingTokens(context: object, tokens: number): void {
  const usage = meters.get(context);
  if (usage) usage.embedding_tokens += tokens;
}
