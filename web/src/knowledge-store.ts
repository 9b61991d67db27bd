import type { Api, Collection, Failure, FileProgress, KnowledgeFile } from './api/services';
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
  /** The page of files the view asks for; undefined until the first list arrives. */
  readonly files: readonly KnowledgeFile[] | undefined;
  /** How the files are searched, filtered, sorted and paged (see `setView`). */
  readonly view: FilesView;
  /** Files matching the view over all pages, and files per status in the whole collection. */
  readonly total: number | undefined;
  readonly counts: FileCounts | undefined;
  /** Asks for another page, search, filter or sort (a change other than `page` starts at 1). */
  setView(change: Partial<FilesView>): Promise<void>;
  /**
   * Keeps an eye on a file that may be on no page shown (an upload under a filter or on page
   * 3): its progress and its going are followed, and `fileById` answers it.
   */
  follow(id: string): void;
  /** Whether the file is on the page shown now. */
  isListed(id: string): boolean;
  /** Whether a followed file was found gone (deleted, moved). */
  isGone(id: string): boolean;
  /** Why the last refresh failed, if it did. */
  readonly error: Failure | undefined;
  /** Only ready, switched-on files: the others are not searched. Kept across pages. */
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
  /** The selected files, in the order they were ticked (they may be on other pages). */
  selectedFiles(): KnowledgeFile[];
  /** The searchable files of the page shown (`counts.ready` tells them all). */
  searchableFiles(): KnowledgeFile[];
}

type GetFilesParams = Parameters<Api['knowledge']['GetFiles']>[0];
export type FileCounts = Awaited<ReturnType<Api['knowledge']['GetFiles']>>['counts'];

/** What the files panel asks for: one page of a search, filter and sort. */
export interface FilesView {
  q: string;
  status: GetFilesParams['status'];
  format: GetFilesParams['format'];
  sort: NonNullable<GetFilesParams['sort']>;
  order: 'asc' | 'desc';
  page: number;
}

/** Files a page: enough to scan, few enough that a page answers at once. */
export const FILES_PER_PAGE = 25;

const FIRST_VIEW: FilesView = {
  q: '',
  status: undefined,
  format: undefined,
  sort: 'created_at',
  order: 'desc',
  page: 1,
};

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
  /** The selected files as last seen: a file ticked on page 1 stays chosen on page 2. */
  const chosen = new Map<string, KnowledgeFile>();
  /** Files followed off the page (uploads), as last seen; ids found gone. */
  const followed = new Map<string, KnowledgeFile | undefined>();
  const gone = new Set<string>();
  /** Asked to be selected before they were seen (a conversation's files on another page). */
  const wanted = new Set<string>();
  let view: FilesView = { ...FIRST_VIEW };
  let total: number | undefined;
  let counts: FileCounts | undefined;
  let files: KnowledgeFile[] | undefined;
  let error: Failure | undefined;
  let pending: Promise<void> | undefined;
  let again = false;
  /** List requests started so far, and the number of the last one that arrived. */
  let listsStarted = 0;
  let listed = 0;
  const notify = () => listeners.forEach((listener) => listener());

  /**
   * Selection only ever holds searchable files that are still there: a file seen (on the page
   * or followed) that is not searchable any more leaves it, and so does one found gone. A
   * selected file on another page stays as it was last seen.
   */
  function pruneSelection(): void {
    const seen = [...(files ?? []), ...[...followed.values()].filter((f) => f !== undefined)];
    for (const file of seen) {
      if (!selected.has(file.id)) continue;
      if (isSearchable(file)) chosen.set(file.id, file);
      else unselect(file.id);
    }
    for (const id of gone) unselect(id);
  }

  function unselect(id: string): void {
    selected.delete(id);
    chosen.delete(id);
  }

  async function load(): Promise<void> {
    const collectionId = collections.current?.id;
    if (!collectionId) return; // the list comes once the collections are known
    const number = ++listsStarted;
    try {
      const asked = view;
      const answer = await ctx.api.knowledge.GetFiles(
        {
          collection_id: collectionId,
          ...(asked.q.trim() ? { q: asked.q.trim() } : {}),
          ...(asked.status ? { status: asked.status } : {}),
          ...(asked.format ? { format: asked.format } : {}),
          sort: asked.sort,
          order: asked.order,
          page: asked.page,
          size: FILES_PER_PAGE,
        },
        { signal: ctx.signal },
      );
      // Another collection (or view) was chosen meanwhile: its own list is on its way.
      if (collections.current?.id !== collectionId || asked !== view) return;
      // A page left empty by a change (its last file deleted) gives way to the one before.
      if (answer.items.length === 0 && asked.page > 1 && answer.total > 0) {
        view = { ...view, page: Math.max(1, Math.ceil(answer.total / FILES_PER_PAGE)) };
        again = true;
        return;
      }
      files = answer.items;
      total = answer.total;
      counts = answer.counts;
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

  /** Files whose progress is asked about: those on their way on the page, and followed ones. */
  const following = () => {
    const ids = new Set((files ?? []).filter(isInProgress).map((file) => file.id));
    for (const [id, file] of followed) {
      if (!ids.has(id) && !isListedNow(id) && (!file || isInProgress(file))) ids.add(id);
    }
    return [...ids];
  };
  const isListedNow = (id: string) => (files ?? []).some((file) => file.id === id);

  // Another collection chosen (or the chosen one gone): its files start from "loading".
  let shown = collections.current?.id;
  collections.subscribe(() => {
    const now = collections.current?.id;
    if (now === shown) return;
    shown = now;
    files = undefined;
    total = undefined;
    counts = undefined;
    error = undefined;
    view = { ...FIRST_VIEW };
    selected.clear();
    chosen.clear();
    followed.clear();
    gone.clear();
    wanted.clear();
    notify();
    void refresh();
  });

  /** Asks about every file in progress; a file missing from the answer was deleted. */
  async function round(): Promise<boolean | 'stop'> {
    const asked = following();
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
    const byId = new Map(answers.map((file) => [file.id, file]));
    let changed = false;
    let settled = false;
    // Followed files off the page: kept as answered, or found gone.
    for (const id of asked) {
      if (!followed.has(id) || isListedNow(id)) continue;
      const now = byId.get(id);
      const before = followed.get(id);
      if (!now) {
        followed.delete(id);
        gone.add(id);
        changed = true;
      } else if (!before || progressKey(now) !== progressKey(before)) {
        followed.set(id, now);
        changed = true;
        if (before && !isInProgress(now)) settled = true;
      }
      if (now && wanted.delete(id) && isSearchable(now)) {
        selected.add(id);
        chosen.set(id, now);
        changed = true;
      }
    }
    // A whole list arrived meanwhile: it is newer than this answer.
    if (listed !== listedBefore || !files) {
      if (changed) notify();
      return true;
    }
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

  function follow(id: string): void {
    // A file found gone stays gone: the uploads ask to follow their files at every render, and
    // following a deleted one again would bring it back as "on its way" until the next poll.
    if (followed.has(id) || gone.has(id)) return;
    followed.set(id, undefined);
    poller.wake();
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
    get view() {
      return view;
    },
    get total() {
      return total;
    },
    get counts() {
      return counts;
    },
    setView(change) {
      const next = { ...view, ...change };
      if (!('page' in change)) next.page = 1;
      view = next;
      notify();
      return refresh();
    },
    follow,
    isListed: isListedNow,
    isGone: (id) => gone.has(id),
    selected,
    subscribe(listener) {
      listeners.push(listener);
      return () => void listeners.splice(listeners.indexOf(listener) >>> 0, 1);
    },
    refresh,
    setSelected(id, on) {
      const file = files?.find((f) => f.id === id) ?? followed.get(id);
      if (on && file && isSearchable(file)) {
        selected.add(id);
        chosen.set(id, file);
      } else if (on && !file && !gone.has(id)) {
        // Not on the page shown: asked about, and selected once known to be searchable.
        wanted.add(id);
        followed.delete(id);
        follow(id);
      } else unselect(id);
      notify();
    },
    clearSelection() {
      selected.clear();
      chosen.clear();
      wanted.clear();
      notify();
    },
    remove(id) {
      const before = files?.length ?? 0;
      files = files?.filter((file) => file.id !== id);
      if (total !== undefined && (files?.length ?? 0) < before) total -= 1;
      followed.delete(id);
      gone.add(id);
      unselect(id);
      notify();
      // The counts per status, and a file from the next page, come with the list again.
      void refresh();
    },
    update(progress) {
      if (!files) return;
      const merge = (file: KnowledgeFile) => {
        const next = { ...file, ...progress };
        if (!progress.error) delete next.error; // a retry clears the last error
        return next;
      };
      files = files.map((file) => (file.id === progress.id ? merge(file) : file));
      const off = followed.get(progress.id);
      if (off) followed.set(progress.id, merge(off));
      pruneSelection();
      notify();
      poller.wake();
    },
    fileById: (id) => files?.find((file) => file.id === id) ?? followed.get(id),
    listMarker: () => listsStarted,
    listedSince: (marker) => listed > marker,
    selectedFiles: () => [...chosen.values()],
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
    file.enabled,
  ]);

function chunksOf<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}
