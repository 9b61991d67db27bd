import type { Failure, KnowledgeFile } from './api/services';
import type { AppContext } from './context';

/** The knowledge base as the page knows it, and which files questions are limited to. */
export interface KnowledgeStore {
  /** Newest first; undefined until the first list arrives. */
  readonly files: readonly KnowledgeFile[] | undefined;
  /** Why the last refresh failed, if it did. */
  readonly error: Failure | undefined;
  readonly selected: ReadonlySet<string>;
  subscribe(listener: () => void): void;
  refresh(): Promise<void>;
  setSelected(id: string, selected: boolean): void;
  clearSelection(): void;
  /** Forgets a deleted file (and its selection). */
  remove(id: string): void;
  /** The selected files, in list order. */
  selectedFiles(): KnowledgeFile[];
}

export function createKnowledgeStore(ctx: AppContext): KnowledgeStore {
  const listeners: (() => void)[] = [];
  const selected = new Set<string>();
  let files: KnowledgeFile[] | undefined;
  let error: Failure | undefined;
  let pending: Promise<void> | undefined;
  let again = false;
  const notify = () => listeners.forEach((listener) => listener());

  async function load(): Promise<void> {
    try {
      files = await ctx.api.knowledge.GetList({}, { signal: ctx.signal });
      error = undefined;
      const ids = new Set(files.map((file) => file.id));
      for (const id of selected) if (!ids.has(id)) selected.delete(id);
    } catch (err) {
      if (ctx.signal.aborted) return;
      const failure = ctx.fail(err);
      if (failure.status === 401) return;
      error = failure;
    }
    notify();
  }

  return {
    get files() {
      return files;
    },
    get error() {
      return error;
    },
    selected,
    subscribe: (listener) => void listeners.push(listener),
    // One list request at a time; calls during it ask for one more afterwards.
    refresh() {
      if (pending) {
        again = true;
        return pending;
      }
      pending = (async () => {
        do {
          again = false;
          await load();
        } while (again);
        pending = undefined;
      })();
      return pending;
    },
    setSelected(id, on) {
      if (on) selected.add(id);
      else selected.delete(id);
      notify();
    },
    clearSelection() {
      selected.clear();
      notify();
    },
    remove(id) {
      files = files?.filter((file) => file.id !== id);
      selected.delete(id);
      notify();
    },
    selectedFiles: () => (files ?? []).filter((file) => selected.has(file.id)),
  };
}
