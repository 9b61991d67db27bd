import type { Collection } from './api/services';
import { collectionName } from './collection-access';
import { openDialog } from './dialog';
import { h, uid } from './dom';
import { t } from './i18n/bind';

/**
 * Asks where a file goes: one of `targets` (the collections the user may add files to, other
 * than the file's own). With none, says why and offers nothing to choose.
 */
export function moveFileDialog(
  fileName: string,
  targets: readonly Collection[],
): Promise<Collection | undefined> {
  return openDialog<Collection | undefined>((_dialog, done) => {
    const title = h(
      'h2',
      null,
      t((m) => m.collections.moveTitle(fileName)),
    );
    const cancel = h(
      'button',
      { type: 'button', class: 'button', on: { click: () => done(undefined) } },
      t((m) => m.dialogs.cancel),
    );
    if (targets.length === 0) {
      queueMicrotask(() => cancel.focus());
      return [
        title,
        h(
          'p',
          null,
          t((m) => m.collections.noTarget),
        ),
        h('div', { class: 'dialog-actions' }, cancel),
      ];
    }
    const selectId = uid('move-target');
    const select = h(
      'select',
      { id: selectId, name: 'collection' },
      targets.map((target) => h('option', { value: target.id }, collectionName(target))),
    );
    const form = h(
      'form',
      {
        on: {
          submit: (event) => {
            event.preventDefault();
            done(targets.find((target) => target.id === select.value));
          },
        },
      },
      title,
      h(
        'p',
        null,
        t((m) => m.collections.moveMessage),
      ),
      h(
        'div',
        { class: 'field' },
        h(
          'label',
          { for: selectId },
          t((m) => m.collections.moveTo),
        ),
        select,
      ),
      h(
        'div',
        { class: 'dialog-actions' },
        cancel,
        h(
          'button',
          { type: 'submit', class: 'button primary' },
          t((m) => m.collections.moveConfirm),
        ),
      ),
    );
    queueMicrotask(() => select.focus());
    return [form];
  }, undefined);
}
