import { afterEach, describe, expect, it } from 'vitest';
import type { ChatCall } from '../call';
import type { chatConfig } from '../config';
import { forgetReembeddings, REEMBED_GUARD_MS, reembedStaleInBackground } from './reembed';

// One re-embedding per scope and isolate at a time: chats that meet the same stale official
// answers at once start one, and an endpoint that fails is not asked by every chat.
function call() {
  const started: Promise<unknown>[] = [];
  const warned: string[] = [];
  const ctx = {
    env: {},
    waitUntil: (promise: Promise<unknown>) => void started.push(promise),
    log: { warn: (msg: string) => warned.push(msg), info: () => undefined },
  } as unknown as ChatCall;
  return { ctx, started, warned };
}
const config = {} as ReturnType<typeof chatConfig>;

afterEach(() => forgetReembeddings());

describe('re-embedding official answers of another model', () => {
  it('starts once per scope within the guard, again after it, and apart per scope', () => {
    const { ctx, started } = call();
    const at = 1_000_000;
    expect(reembedStaleInBackground(ctx, config, ['b', 'a'], 'm@8', at)).toBe(true);
    expect(reembedStaleInBackground(ctx, config, ['a', 'b'], 'm@8', at + 10)).toBe(false);
    expect(reembedStaleInBackground(ctx, config, undefined, 'm@8', at + 10)).toBe(true);
    expect(reembedStaleInBackground(ctx, config, ['a', 'b'], 'other@8', at + 10)).toBe(true);
    expect(
      reembedStaleInBackground(ctx, config, ['a', 'b'], 'm@8', at + REEMBED_GUARD_MS + 1),
    ).toBe(true);
    expect(started).toHaveLength(4);
  });

  it('a failure is logged, never thrown at the chat', async () => {
    const { ctx, started, warned } = call();
    expect(reembedStaleInBackground(ctx, config, ['a'], 'm@8')).toBe(true);
    await Promise.all(started);
    expect(warned).toEqual(['official answers of another model not re-embedded']);
  });
});
