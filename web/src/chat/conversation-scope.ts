import { signal } from '@preact/signals';
import type { Conversation } from '../api/services';
import { SHARED_COLLECTION_ID } from '../collection-access';
import type { CollectionStore } from '../collection-store';
import type { AppContext } from '../context';
import { t, type Localized } from '../i18n/bind';
import { formatList } from '../i18n/format';
import type { KnowledgeStore } from '../knowledge-store';

/**
 * What a conversation searched, both ways: named in the chat's header as the reader knows it,
 * and brought back to the files panel (its collection chosen, its files ticked) when the
 * conversation is opened again.
 */
export function createConversationScope(
  ctx: AppContext,
  store: KnowledgeStore,
  collections: CollectionStore,
) {
  /** The scope of a conversation just opened, applied to the files panel once it is loaded. */
  let pending: { collection?: string; files: string[] } | undefined;
  /** Names of files a conversation searched that the files panel does not list (null: gone). */
  const fileNames = new Map<string, string | null>();
  /** Bumped when a name was looked up: the header names the files again. */
  const namesKnown = signal(0);
  let lookingUp = false;

  function lookUpFiles(ids: string[]): void {
    const missing = ids.filter((id) => !store.fileById(id) && !fileNames.has(id));
    if (missing.length === 0 || lookingUp) return;
    lookingUp = true;
    void (async () => {
      try {
        const found = await ctx.api.knowledge.GetList(
          { file_id: missing.slice(0, 50).join(',') },
          { signal: ctx.signal },
        );
        for (const id of missing) fileNames.set(id, null);
        for (const file of found) fileNames.set(file.id, file.name);
      } catch {
        for (const id of missing) fileNames.set(id, null);
      } finally {
        lookingUp = false;
      }
      namesKnown.value += 1;
    })();
  }

  /** What the conversation searched (its latest turn's scope). */
  function describe(open: Conversation): Localized {
    void namesKnown.value;
    const files = open.file_id ?? [];
    if (files.length > 0) {
      lookUpFiles(files);
      const names = files
        .map((id) => store.fileById(id)?.name ?? fileNames.get(id))
        .filter((name): name is string => typeof name === 'string');
      const unknown = files.length - names.length;
      return t((m) => {
        const shownNames = unknown > 0 ? [...names, m.conversations.unknownFiles(unknown)] : names;
        return m.conversations.scopeFiles(files.length, formatList(shownNames));
      });
    }
    const ids = open.collection_id ?? [];
    if (ids.length === 0) return t((m) => m.conversations.scopeAll);
    return t((m) => {
      const names = ids.map((id) =>
        id === SHARED_COLLECTION_ID
          ? m.collections.shared
          : `“${collections.byId(id)?.name ?? '…'}”`,
      );
      return ids.length === 1
        ? m.conversations.scopeCollection(names[0]!)
        : m.conversations.scopeCollections(formatList(names));
    });
  }

  /** Shows the pending scope in the files panel, as far as what is loaded allows. */
  function apply(): void {
    const wanted = pending;
    if (!wanted || !collections.collections) return;
    if (wanted.collection !== undefined) {
      if (!collections.byId(wanted.collection)) {
        pending = undefined; // no longer readable: the workspace stays as it is
        return;
      }
      if (collections.current?.id !== wanted.collection) {
        collections.choose(wanted.collection);
        return; // the files come with the switch
      }
    }
    if (!store.files || (wanted.collection && store.collection?.id !== wanted.collection)) return;
    pending = undefined;
    store.clearSelection();
    // Files on another page of the panel are selected once the store has asked about them.
    for (const id of wanted.files) store.setSelected(id, true);
  }

  const stop = [collections.subscribe(apply), store.subscribe(apply)];
  ctx.signal.addEventListener('abort', () => stop.forEach((unsubscribe) => unsubscribe()));

  return {
    describe,
    /** A conversation opened again: its scope goes to the files panel. */
    restore(open: Conversation): void {
      pending = {
        collection: open.collection_id?.length === 1 ? open.collection_id[0] : undefined,
        files: open.file_id ?? [],
      };
      apply();
    },
  };
}

export type ConversationScope = ReturnType<typeof createConversationScope>;
