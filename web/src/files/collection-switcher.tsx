import { collectionLink } from '../main/route';
import { useRef } from 'preact/hooks';
import { collectionName, mayAddFiles } from '../collection-access';
import type { CollectionStore } from '../collection-store';
import { useUniqueId } from '../components/unique-id';
import { useStore } from '../components/use-store';
import { useApp } from '../context';
import { now, t, type Localized } from '../i18n/bind';
import { failureText } from '../i18n/failure';
import { messages } from '../i18n/messages';
import { newCollectionDialog } from './new-collection-dialog';

export interface CollectionSwitcherProps {
  collections: CollectionStore;
  /** Tells screen readers what happened (a collection created). */
  say(text: Localized): void;
}

/**
 * Which collection the files panel (and the chat) works on: a list of the user's collections,
 * the shared one first; a way to its members page; and "New collection", which anyone may
 * create.
 */
export function CollectionSwitcher({ collections, say }: CollectionSwitcherProps) {
  useStore(collections);
  const ctx = useApp();
  const selectId = useUniqueId('collection');
  const hintId = useUniqueId('collection-hint');
  const select = useRef<HTMLSelectElement>(null);
  const m = messages();
  const list = collections.collections;
  const current = collections.current;
  const error = collections.error;

  async function createCollection(): Promise<void> {
    const created = await newCollectionDialog(ctx);
    if (!created) return;
    await collections.refresh();
    collections.choose(created.id);
    const name = created.name;
    say(t((words) => words.collections.created(name)));
    select.current?.focus();
  }

  return (
    <div class="collection-switcher">
      <div class="collection-choice">
        <label for={selectId}>{m.collections.collection}</label>
        <select
          ref={select}
          id={selectId}
          name="collection"
          aria-describedby={hintId}
          disabled={!list}
          value={current?.id}
          onChange={(event) => collections.choose(event.currentTarget.value)}
        >
          {list ? (
            list.map((c) => (
              <option key={c.id} value={c.id} selected={c.id === current?.id}>
                {now(collectionName(c))}
              </option>
            ))
          ) : (
            <option>{m.collections.loading}</option>
          )}
        </select>
      </div>
      <div class="collection-actions">
        {/* The shared collection has no members: its keepers (a SUPER_ADMIN, its owner) still
            open its screens (retrieval test, official answers, gap report). */}
        <a
          class="button small"
          hidden={!current || (current.shared && current.role !== 'owner')}
          href={current ? collectionLink(current.id) : undefined}
        >
          {current?.shared ? m.collections.manage : m.collections.members}
        </a>
        <button type="button" class="button small" onClick={() => void createCollection()}>
          {m.collections.newCollection}
        </button>
      </div>
      <p class="hint collection-hint" id={hintId}>
        {current &&
          (current.shared ? (
            m.collections.sharedHint
          ) : (
            <>
              {m.collections.yourRole(m.collections.role(current.role))}
              {!mayAddFiles(current) && ` ${m.collections.viewerHint}`}
              {current.description && (
                <>
                  <br />
                  {current.description}
                </>
              )}
            </>
          ))}
      </p>
      <p class="notice error" role="alert" hidden={!error}>
        {error && m.collections.loadFailed(failureText(error, m))}
      </p>
    </div>
  );
}
