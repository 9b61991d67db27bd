import type { KnowledgeFile } from './api/services';
import type { AppContext } from './context';
import { downloadLink } from './download';
import { h, replace, uid } from './dom';
import { fileErrorText, progressShown } from './file-progress-text';
import { isSearchable } from './file-status';
import { localizeAttribute, t } from './i18n/bind';
import { formatBytes, formatDate } from './i18n/format';
import { createProgressBar } from './progress-bar';

export interface FileRowActions {
  select(file: KnowledgeFile, selected: boolean): void;
  remove(file: KnowledgeFile, button: HTMLButtonElement): void;
  retry(file: KnowledgeFile, button: HTMLButtonElement): void;
  move(file: KnowledgeFile, button: HTMLButtonElement): void;
}

export interface FileRow {
  readonly element: HTMLLIElement;
  /** Shows the file as it is now. The row keeps its nodes, so focus stays where it was. */
  update(file: KnowledgeFile, selected: boolean): void;
}

/**
 * One file of the knowledge base: ready files can be ticked to limit questions to them;
 * files on their way show their progress, failed files why, with Retry. Whoever may manage it
 * (`canManage`: see collection-access.ts) may delete it or move it to another collection;
 * only ready files can be ticked: only they are searched (the row says so, on hover and to
 * screen readers).
 */
export function createFileRow(
  ctx: AppContext,
  initial: KnowledgeFile,
  canManage: boolean,
  actions: FileRowActions,
): FileRow {
  let file = initial;
  const checkboxId = uid('file');
  const metaId = uid('file-meta');
  const statusId = uid('file-status');
  const noteId = uid('file-note');

  const checkbox = h('input', {
    type: 'checkbox',
    id: checkboxId,
    on: { change: () => actions.select(file, checkbox.checked) },
  });
  const nameLabel = h('label', { for: checkboxId, class: 'file-name' }, file.name);
  const badge = h('span', { class: 'badge file-badge' });
  const meta = h('p', { class: 'file-meta', id: metaId });
  const bar = createProgressBar(t((m) => m.files.progressProcessing(file.name)));
  const status = h('p', { class: 'file-status', id: statusId });
  const note = h('p', { class: 'file-note', id: noteId });
  const retryButton =
    canManage &&
    h(
      'button',
      {
        type: 'button',
        class: 'button small',
        'aria-label': t((m) => m.files.retryNamed(file.name)),
        on: { click: () => actions.retry(file, retryButton as HTMLButtonElement) },
      },
      t((m) => m.files.retry),
    );
  const moveButton =
    canManage &&
    h(
      'button',
      {
        type: 'button',
        class: 'button small',
        'aria-label': t((m) => m.collections.moveNamed(file.name)),
        on: { click: () => actions.move(file, moveButton as HTMLButtonElement) },
      },
      t((m) => m.collections.move),
    );
  const deleteButton =
    canManage &&
    h(
      'button',
      {
        type: 'button',
        class: 'button small danger-outline',
        'aria-label': t((m) => m.files.deleteNamed(file.name)),
        on: { click: () => actions.remove(file, deleteButton as HTMLButtonElement) },
      },
      t((m) => m.files.delete),
    );
  const download = downloadLink(
    ctx,
    file,
    { class: 'button small', 'aria-label': t((m) => m.files.downloadNamed(file.name)) },
    t((m) => m.files.download),
  );

  const element = h(
    'li',
    { class: 'file', 'data-file-id': file.id },
    checkbox,
    h(
      'div',
      { class: 'file-main' },
      h('div', { class: 'file-title' }, nameLabel, badge),
      meta,
      bar.element,
      status,
      note,
    ),
    h('div', { class: 'file-actions' }, download, retryButton, moveButton, deleteButton),
  );

  function update(next: KnowledgeFile, selected: boolean): void {
    file = next;
    const searchable = isSearchable(file);
    const failed = file.status === 'failed';
    const shown = progressShown(file, file.format);
    element.dataset.status = file.status;
    element.classList.toggle('selected', selected);

    checkbox.checked = selected;
    checkbox.disabled = !searchable;
    checkbox.setAttribute('aria-describedby', searchable ? metaId : `${noteId} ${metaId}`);
    localizeAttribute(
      nameLabel,
      'title',
      t((m) =>
        searchable
          ? m.files.selectTitle
          : failed
            ? m.files.notSelectableFailed
            : m.files.notSelectableInProgress,
      ),
    );

    const badgeStatus = file.status === 'ready' || file.status === 'UNKNOWN' ? null : file.status;
    badge.hidden = badgeStatus === null;
    if (badgeStatus) {
      replace(
        badge,
        t((m) => m.files.statusBadge(badgeStatus)),
      );
    }
    badge.classList.toggle('off', failed);

    const { pages, chunks, size, format, uploader, created_at } = file;
    replace(
      meta,
      searchable
        ? t((m) =>
            format === 'pdf'
              ? m.files.meta(pages, chunks, formatBytes(size))
              : m.files.metaSections(pages, chunks, formatBytes(size)),
          )
        : t((m) => `${m.files.format(format)} · ${formatBytes(size)}`),
      h('br'),
      `${uploader.username} · `,
      h(
        'time',
        { datetime: created_at },
        t(() => formatDate(created_at)),
      ),
    );

    bar.element.hidden = !shown;
    if (shown) bar.set(shown.fraction, shown.text);
    status.hidden = !shown && !failed && file.status !== 'UNKNOWN';
    const error = file.error;
    replace(
      status,
      shown
        ? shown.text
        : failed
          ? t((m) => fileErrorText(error, m))
          : file.status === 'UNKNOWN' && t((m) => m.files.statusUnknown),
    );
    note.hidden = searchable;
    replace(
      note,
      t((m) => (failed ? m.files.notSelectableFailed : m.files.notSelectableInProgress)),
    );

    if (retryButton) {
      // The button goes away once the retry is under way: its focus goes to Delete.
      if (!failed && document.activeElement === retryButton && deleteButton) deleteButton.focus();
      retryButton.hidden = !failed;
    }
  }

  update(initial, false);
  return { element, update };
}
