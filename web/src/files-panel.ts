import { mayAddFiles } from './collection-access';
import type { CollectionStore } from './collection-store';
import { createCollectionSwitcher } from './collection-switcher';
import type { AppContext } from './context';
import { h, replace, uid } from './dom';
import { createDropzone } from './dropzone';
import { createFileList } from './file-list';
import { t } from './i18n/bind';
import { failureText } from './i18n/failure';
import type { KnowledgeStore } from './knowledge-store';
import { createUploadList } from './upload-list';

/**
 * The knowledge base, one collection at a time: choose it, upload documents into it and
 * follow them until they are ready; see, download, retry, move, delete and select files.
 * A viewer of the collection gets no way to upload (the service would refuse it).
 */
export function createFilesPanel(
  ctx: AppContext,
  store: KnowledgeStore,
  collections: CollectionStore,
): HTMLElement {
  const titleId = uid('kb-title');
  const uploads = createUploadList(ctx, store);
  const mayUpload = () => store.collection !== undefined && mayAddFiles(store.collection);
  const enqueue = (files: File[]) => {
    if (mayUpload()) uploads.enqueue(files);
  };
  const dropzone = createDropzone(enqueue);

  // Drag and drop: onto the panel; a file dropped elsewhere is not opened by the browser.
  let dragDepth = 0;
  const panel = h('section', {
    class: 'panel files-panel',
    'aria-labelledby': titleId,
    on: {
      dragenter: (event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        dragDepth += 1;
        dropzone.classList.add('dragging');
      },
      dragover: (event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
      },
      dragleave: () => {
        dragDepth = Math.max(0, dragDepth - 1);
        if (dragDepth === 0) dropzone.classList.remove('dragging');
      },
      drop: (event) => {
        event.preventDefault();
        dragDepth = 0;
        dropzone.classList.remove('dragging');
        enqueue([...(event.dataTransfer?.files ?? [])]);
      },
    },
  });
  const ignoreDrop = (event: DragEvent) => {
    if (hasFiles(event) && !panel.contains(event.target as Node)) event.preventDefault();
  };
  window.addEventListener('dragover', ignoreDrop, { signal: ctx.signal });
  window.addEventListener('drop', ignoreDrop, { signal: ctx.signal });

  // ---- the list --------------------------------------------------------------------------
  const count = h('span', { class: 'count' });
  const selection = h('div', { class: 'selection-bar', hidden: true });
  const empty = h('div', { class: 'empty', hidden: true });
  // Why the list could not be loaded (it follows the store), and why an action on a file
  // failed (it stays until the next action: the list changes every second while files are
  // processed).
  const notice = h('p', { class: 'notice error list-notice', role: 'alert', hidden: true });
  const actionNotice = h('p', { class: 'notice error action-notice', role: 'alert', hidden: true });
  const announcer = h('p', { class: 'visually-hidden', role: 'status' });
  const list = createFileList(ctx, store, collections, titleId, {
    say: (text) => replace(announcer, text),
    complain: (text) => {
      actionNotice.hidden = !text;
      replace(actionNotice, text);
    },
  });

  const switcher = createCollectionSwitcher(ctx, collections, (text) => replace(announcer, text));

  function renderList(): void {
    dropzone.hidden = !mayUpload();
    const files = store.files;
    const error = store.error;
    notice.hidden = !error;
    replace(notice, error && t((m) => m.files.listFailed(failureText(error, m))));
    if (!files) {
      replace(count);
      replace(
        list.element,
        h(
          'li',
          { class: 'loading' },
          t((m) => m.files.loading),
        ),
      );
      return;
    }
    const total = files.length;
    replace(
      count,
      t((m) => m.files.fileCount(total)),
    );
    empty.hidden = files.length > 0;
    replace(
      empty,
      h(
        'p',
        { class: 'empty-title' },
        t((m) => m.files.emptyTitle),
      ),
      h(
        'p',
        null,
        t((m) => m.files.empty),
      ),
    );
    list.render(files);
    const chosen = store.selectedFiles();
    selection.hidden = chosen.length === 0;
    replace(
      selection,
      h(
        'span',
        null,
        t((m) => m.files.selected(chosen.length)),
      ),
      h(
        'button',
        { type: 'button', class: 'link-button', on: { click: () => store.clearSelection() } },
        t((m) => m.files.clearSelection),
      ),
    );
  }

  store.subscribe(renderList);
  // A role given or taken shows or hides the upload control.
  collections.subscribe(renderList);
  renderList();

  panel.append(
    h(
      'div',
      { class: 'panel-head' },
      h(
        'h2',
        { id: titleId, tabindex: -1 },
        t((m) => m.files.knowledgeBase),
      ),
      count,
    ),
    switcher,
    dropzone,
    uploads.element,
    notice,
    actionNotice,
    announcer,
    selection,
    empty,
    list.element,
  );
  return panel;
}

function hasFiles(event: DragEvent): boolean {
  return [...(event.dataTransfer?.types ?? [])].includes('Files');
}
