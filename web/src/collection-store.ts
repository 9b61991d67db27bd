import type { Collection, Failure } from './api/services';
import { mayAddFiles } from './collection-access';
import type { AppContext } from './context';

/** The collections the user can read, and the one the workspace shows. */
export interface CollectionStore {
  /** The shared one first, then by name (as the service lists them); undefined until loaded. */
  readonly collections: readonly Collection[] | undefined;
  /** Why the last refresh failed, if it did. */
  readonly error: Failure | undefined;
  /** The chosen collection; undefined until the list arrives. */
  readonly current: Collection | undefined;
  /** Calls `listener` after every change; the function it answers stops that. */
  subscribe(listener: () => void): () => void;
  refresh(): Promise<void>;
  choose(id: string): void;
  byId(id: string): Collection | undefined;
  /** The collections files can be added to (moved into), the chosen one included. */
  writable(): Collection[];
}

/**
 * The choice is remembered per user in localStorage: the next visit opens the same collection.
 * One the user can no longer read (deleted, left, removed) falls back to the shared one.
 */
export function createCollectionStore(ctx: AppContext): CollectionStore {
  const storageKey = `kbchat.collection.${ctx.me.id}`;
  const listeners: (() => void)[] = [];
  let collections: Collection[] | undefined;
  let error: Failure | undefined;
  let chosen = remembered(storageKey);
  const notify = () => listeners.forEach((listener) => listener());

  const byId = (id: string | undefined) => collections?.find((c) => c.id === id);

  async function refresh(): Promise<void> {
    try {
      collections = await ctx.api.knowledge.GetCollections({}, { signal: ctx.signal });
      error = undefined;
    } catch (err) {
      if (ctx.signal.aborted) return;
      const failure = ctx.fail(err);
      if (failure.status === 401) return;
      error = failure;
    }
    notify();
  }

  return {
    get collections() {
      return collections;
    },
    get error() {
      return error;
    },
    get current() {
      return byId(chosen) ?? collections?.find((c) => c.shared) ?? collections?.[0];
    },
    subscribe(listener) {
      listeners.push(listener);
      return () => void listeners.splice(listeners.indexOf(listener) >>> 0, 1);
    },
    refresh,
    choose(id) {
      if (id === chosen) return;
      chosen = id;
      remember(storageKey, id);
      notify();
    },
    byId,
    writable: () => (collections ?? []).filter(mayAddFiles),
  };
}

function remembered(key: string): string | undefined {
  try {
    return localStorage.getItem(key) ?? undefined;
  } catch {
    return undefined; // storage blocked: the shared collection
  }
}

function remember(key: string, id: string): void {
  try {
    localStorage.setItem(key, id);
  } catch {
    // Not remembered; the choice still holds for this page.
  }
}
