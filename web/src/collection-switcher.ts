import { collectionName, mayAddFiles } from './collection-access';
import type { CollectionStore } from './collection-store';
import type { AppContext } from './context';
import { h, replace, uid } from './dom';
import { t, type Localized } from './i18n/bind';
import { failureText } from './i18n/failure';
import { newCollectionDialog } from './files/new-collection-dialog';

/**
 * Which collection the files panel (and the chat) works on: a list of the user's collections,
 * the shared one first; a way to its members page; and "New collection", which anyone may
 * create. `say` tells screen readers what happened (a collection created).
 */
export function createCollectionSwitcher(
  ctx: AppContext,
  collections: CollectionStore,
  say: (text: Localized) => void,
): HTMLElement {
  const selectId = uid('collection');
  const hintId = uid('collection-hint');
  const select = h('select', {
    id: selectId,
    name: 'collection',
    'aria-describedby': hintId,
    on: { change: () => collections.choose(select.value) },
  });
  const members = h(
    'a',
    { class: 'button small', hidden: true },
    t((m) => m.collections.members),
  );
  const create = h(
    'button',
    { type: 'button', class: 'button small', on: { click: () => void createCollection() } },
    t((m) => m.collections.newCollection),
  );
  const hint = h('p', { class: 'hint collection-hint', id: hintId });
  const problem = h('p', { class: 'notice error', role: 'alert', hidden: true });

  async function createCollection(): Promise<void> {
    const created = await newCollectionDialog(ctx);
    if (!created) return;
    await collections.refresh();
    collections.choose(created.id);
    const name = created.name;
    say(t((m) => m.collections.created(name)));
    select.focus();
  }

  function render(): void {
    const list = collections.collections;
    const current = collections.current;
    const error = collections.error;
    problem.hidden = !error;
    replace(problem, error && t((m) => m.collections.loadFailed(failureText(error, m))));
    select.disabled = !list;
    replace(
      select,
      list
        ? list.map((c) =>
            h('option', { value: c.id, selected: c.id === current?.id }, collectionName(c)),
          )
        : h(
            'option',
            null,
            t((m) => m.collections.loading),
          ),
    );
    if (current) select.value = current.id;
    members.hidden = !current || current.shared;
    if (current && !current.shared) members.href = `#/collection/${current.id}`;
    replace(
      hint,
      current &&
        (current.shared
          ? t((m) => m.collections.sharedHint)
          : [
              t((m) => m.collections.yourRole(m.collections.role(current.role))),
              !mayAddFiles(current) && [' ', t((m) => m.collections.viewerHint)],
              current.description && [h('br'), current.description],
            ]),
    );
  }

  collections.subscribe(render);
  render();

  return h(
    'div',
    { class: 'collection-switcher' },
    h(
      'div',
      { class: 'collection-choice' },
      h(
        'label',
        { for: selectId },
        t((m) => m.collections.collection),
      ),
      select,
    ),
    h('div', { class: 'collection-actions' }, members, create),
    hint,
    problem,
  );
}
