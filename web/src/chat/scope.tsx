import type { KnowledgeStore } from '../knowledge-store';
import { useStore } from '../components/use-store';
import { isInProgress } from '../file-status';
import { formatList } from '../i18n/format';
import { messages } from '../i18n/messages';

/** What the next question searches: the files ticked, or the collection's ready files. */
export function Scope({ store }: { store: KnowledgeStore }) {
  useStore(store);
  const m = messages();
  const files = store.files;
  const chosen = store.selectedFiles();
  const collection = store.collection;
  const where = collection && !collection.shared && (
    <span class="scope-collection">{m.chat.inCollection(collection.name)}</span>
  );
  if (chosen.length > 0) {
    return (
      <div class="scope">
        {where}
        <span>
          {m.chat.searchingOnly(chosen.length)}
          <strong>{formatList(chosen.map((file) => file.name))}</strong>
        </span>
        <button type="button" class="link-button" onClick={() => store.clearSelection()}>
          {m.chat.searchAll}
        </button>
      </div>
    );
  }
  // Empty is the collection, not the page a search shows.
  const inCollection = store.counts
    ? store.counts.queued + store.counts.processing + store.counts.ready + store.counts.failed
    : files?.length;
  if (files && inCollection === 0) {
    return (
      <div class="scope">
        {where}
        <span>{m.chat.emptyKnowledgeBase}</span>
      </div>
    );
  }
  // Only ready files are searched: files still being processed are not counted.
  // The panel shows one page of files: the collection's counts tell them all.
  const count = files ? (store.counts?.ready ?? store.searchableFiles().length) : undefined;
  const processing = store.counts
    ? store.counts.queued + store.counts.processing
    : (files ?? []).filter(isInProgress).length;
  return (
    <div class="scope">
      {where}
      <span>
        {count === 0
          ? m.chat.noneReady(processing)
          : count === 1
            ? m.chat.searchingOne
            : m.chat.searchingAll(count)}
      </span>
    </div>
  );
}
