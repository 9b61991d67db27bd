import type { Collection, Failure, FileProgress, KnowledgeFile } from './api/services';
import type { CollectionStore } from './collection-store';
import type { AppContext } from './context';
import { isInProgress, isSearchable } from './file-status';
import { createPoller } from './progress-poller';

/**
 * The chosen collection of the knowledge base as the page knows it, and which files questions
 * are limited to.
 */
export interface KnowledgeStore {
  /** The collection whose files these are; undefined until the collections are loaded. */
  readonly collection: Collection | undefined;
  /** Newest first, whatever their status; undefined until the first list arrives. */
  readonly files: readonly KnowledgeFile[] | undefined;
  /** Why the last refresh failed, if it did. */
  readonly error: Failure | undefined;
  /** Only ready files: the others are not searched. */
  readonly selected: ReadonlySet<string>;
  /** Calls `listener` after every change; the function it answers stops that. */
  subscribe(listener: () => void): () => void;
  refresh(): Promise<void>;
  setSelected(id: string, selected: boolean): void;
  clearSelection(): void;
  /** Forgets a deleted or moved file (and its selection). */
  remove(id: string): void;
  /** Takes a newer progress of a known file (a retry's answer) and follows it. */
  update(progress: FileProgress): void;
  fileById(id: string): KnowledgeFile | undefined;
  /** A mark in time for `listedSince`: taken when a file is known to exist. */
  listMarker(): number;
  /** Whether a list asked for after `marker` has arrived: a file missing from it is gone. */
  listedSince(marker: number): boolean;
  /** The selected files, in list order. */
  selectedFiles(): KnowledgeFile[];
  /** The files questions search when none is selected. */
  searchableFiles(): KnowledgeFile[];
}

/**
 * One request asks about at most this many files (ids joined by commas: the service takes
 * 4,000 characters, ~100 ids).
 */
const IDS_PER_REQUEST = 50;

/**
 * Files on their way to the index are followed by polling `GetList?file_id=…` for all of
 * them at once, rather than one `GetFileProgress` stream per file: a stream holds a
 * connection for as long as the file is processed, and over HTTP/1.1 (wrangler dev, some
 * proxies) a browser opens at most six per origin — ten files uploaded at once would starve
 * the chat's stream and every other call. One short request per round, whatever the number
 * of files, needs no resuming after sleep, a network change or a deploy, and answers the list
 * entries the page shows anyway. The cost is up to a second of delay and some idle requests,
 * which the poller spaces out while nothing moves.
 */
export function createKnowledgeStore(
  ctx: AppContext,
  collections: CollectionStore,
): KnowledgeStore {
  const listeners: (() => void)[] = [];
  const selected = new Set<string>();
  let files: KnowledgeFile[] | undefined;
  let error: Failure | undefined;
  let pending: Promise<void> | undefined;
  let again = false;
  /** List requests started so far, and the number of the last one that arrived. */
  let listsStarted = 0;
  let listed = 0;
  const notify = () => listeners.forEach((listener) => listener());

  /** Selection only ever holds ready files that are still there. */
  function pruneSelection(): void {
    const searchable = new Set((files ?? []).filter(isSearchable).map((file) => file.id));
    for (const id of selected) if (!searchable.has(id)) selected.delete(id);
  }

  async function load(): Promise<void> {
    const collectionId = collections.current?.id;
    if (!collectionId) return; // the list comes once the collections are known
    const number = ++listsStarted;
    try {
      const answer = await ctx.api.knowledge.GetList(
        { collection_id: collectionId },
        { signal: ctx.signal },
      );
      // Another collection was chosen meanwhile: its own list is on its way.
      if (collections.current?.id !== collectionId) return;
      files = answer;
      listed = number;
      error = undefined;
      pruneSelection();
      poller.wake();
    } catch (err) {
      if (ctx.signal.aborted) return;
      const failure = ctx.fail(err);
      if (failure.status === 401 || collections.current?.id !== collectionId) return;
      // The collection was deleted, or the user removed from it: listed again, the workspace
      // falls back to the shared collection (and the error goes with the switch).
      if (failure.status === 404) void collections.refresh();
      error = failure;
    }
    notify();
  }

  function refresh(): Promise<void> {
    // One list request at a time; calls during it ask for one more afterwards.
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
  }

  const following = () => (files ?? []).filter(isInProgress);

  // Another collection chosen (or the chosen one gone): its files start from "loading".
  let shown = collections.current?.id;
  collections.subscribe(() => {
    const now = collections.current?.id;
    if (now === shown) return;
    shown = now;
    files = undefined;
    error = undefined;
    selected.clear();
    notify();
    void refresh();
  });

  /** Asks about every file in progress; a file missing from the answer was deleted. */
  async function round(): Promise<boolean | 'stop'> {
    const asked = following().map((file) => file.id);
    const listedBefore = listed;
    let answers: KnowledgeFile[];
    try {
      answers = (
        await Promise.all(
          chunksOf(asked, IDS_PER_REQUEST).map((ids) =>
            ctx.api.knowledge.GetList({ file_id: ids.join(',') }, { signal: ctx.signal }),
          ),
        )
      ).flat();
    } catch (err) {
      if (ctx.signal.aborted || ctx.fail(err).status === 401) return 'stop';
      return false;
    }
    // A whole list arrived meanwhile: it is newer than this answer.
    if (listed !== listedBefore || !files) return true;
    const byId = new Map(answers.map((file) => [file.id, file]));
    let changed = false;
    let settled = false;
    files = files.flatMap((file) => {
      if (!asked.includes(file.id)) return [file];
      const now = byId.get(file.id);
      if (!now) {
        changed = true;
        return [];
      }
      if (progressKey(now) !== progressKey(file)) changed = true;
      if (!isInProgress(now)) settled = true;
      return [now];
    });
    if (changed) {
      pruneSelection();
      notify();
    }
    // A file became ready or failed: the whole list again, which also brings files that
    // others uploaded meanwhile.
    if (settled) void refresh();
    return changed;
  }

  const poller = createPoller({
    wanted: () => following().length > 0,
    round,
    signal: ctx.signal,
  });

  return {
    get collection() {
      return collections.current;
    },
    get files() {
      return files;
    },
    get error() {
      return error;
    },
    selected,
    subscribe(listener) {
      listeners.push(listener);
      return () => void listeners.splice(listeners.indexOf(listener) >>> 0, 1);
    },
    refresh,
    setSelected(id, on) {
      const file = files?.find((f) => f.id === id);
      if (on && file && isSearchable(file)) selected.add(id);
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
    update(progress) {
      if (!files) return;
      files = files.map((file) => {
        if (file.id !== progress.id) return file;
        const next = { ...file, ...progress };
        if (!progress.error) delete next.error; // a retry clears the last error
        return next;
      });
      pruneSelection();
      notify();
      poller.wake();
    },
    fileById: (id) => files?.find((file) => file.id === id),
    listMarker: () => listsStarted,
    listedSince: (marker) => listed > marker,
    selectedFiles: () => (files ?? []).filter((file) => selected.has(file.id)),
    searchableFiles: () => (files ?? []).filter(isSearchable),
  };
}

/** What the page shows of a file's progress, to tell whether an answer changed anything. */
const progressKey = (file: KnowledgeFile) =>
  JSON.stringify([
    file.status,
    file.pages,
    file.pages_done,
    file.chunks,
    file.chunks_done,
    file.error,
  ]);

function chunksOf<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}
