import type { Failure, KnowledgeFile, UploadResult } from './api/services';
import { isAbort, type AppContext } from './context';
import { confirmDialog } from './dialog';
import { downloadLink } from './download';
import { h, replace, uid } from './dom';
import { t, type Localized } from './i18n/bind';
import { failureText } from './i18n/failure';
import { formatBytes, formatDate } from './i18n/format';
import type { Messages } from './i18n/messages';
import type { KnowledgeStore } from './knowledge-store';
import { xhrTransport } from './xhr';

/** At most this many files upload at once; the rest wait their turn. */
const PARALLEL_UPLOADS = 2;

type UploadState =
  | { kind: 'queued' }
  | { kind: 'uploading'; fraction: number }
  | { kind: 'processing' }
  | { kind: 'added'; result: UploadResult }
  | { kind: 'duplicate'; result: UploadResult }
  | { kind: 'failed'; message: Localized }
  | { kind: 'cancelled' };

interface Upload {
  file: File;
  state: UploadState;
  controller: AbortController;
  row: HTMLLIElement;
}

/** The knowledge base: upload PDFs, see, download, delete and select files. */
export function createFilesPanel(ctx: AppContext, store: KnowledgeStore): HTMLElement {
  const titleId = uid('kb-title');
  const pickerId = uid('file-picker');

  // ---- uploads ---------------------------------------------------------------------------
  const uploads: Upload[] = [];
  const uploadList = h('ul', { class: 'uploads', 'aria-label': t((m) => m.files.uploads) });
  const clearUploads = h(
    'button',
    { type: 'button', class: 'link-button', hidden: true, on: { click: () => clearFinished() } },
    t((m) => m.files.clearFinished),
  );
  const uploadsAnnouncer = h('p', { class: 'visually-hidden', role: 'status' });

  const picker = h('input', {
    id: pickerId,
    type: 'file',
    multiple: true,
    accept: '.pdf,application/pdf',
    class: 'visually-hidden',
    tabindex: -1,
    'aria-hidden': 'true',
    on: {
      change: () => {
        enqueue([...(picker.files ?? [])]);
        picker.value = '';
      },
    },
  });
  const dropzone = h(
    'div',
    { class: 'dropzone' },
    h(
      'p',
      { class: 'dropzone-title' },
      t((m) => m.files.dropHere),
    ),
    h(
      'p',
      { class: 'dropzone-or' },
      t((m) => m.files.or),
    ),
    h(
      'button',
      { type: 'button', class: 'button', on: { click: () => picker.click() } },
      t((m) => m.files.choose),
    ),
    h(
      'p',
      { class: 'hint' },
      t((m) => m.files.dropHint),
    ),
    picker,
  );

  function enqueue(files: File[]): void {
    for (const file of files) {
      const upload: Upload = {
        file,
        state: { kind: 'queued' },
        controller: new AbortController(),
        row: h('li', { class: 'upload' }),
      };
      uploads.push(upload);
      uploadList.append(upload.row);
      renderUpload(upload);
    }
    const added = files.length;
    replace(
      uploadsAnnouncer,
      t((m) => m.files.added(added)),
    );
    clearUploads.hidden = true;
    pump();
  }

  function pump(): void {
    const running = uploads.filter(
      (u) => u.state.kind === 'uploading' || u.state.kind === 'processing',
    ).length;
    const next = uploads.find((u) => u.state.kind === 'queued');
    if (!next || running >= PARALLEL_UPLOADS) return;
    void run(next);
    pump();
  }

  async function run(upload: Upload): Promise<void> {
    set(upload, { kind: 'uploading', fraction: 0 });
    const transport = xhrTransport({
      onProgress: (fraction) => {
        if (upload.state.kind === 'uploading') set(upload, { kind: 'uploading', fraction });
      },
      onSent: () => set(upload, { kind: 'processing' }),
    });
    try {
      const result = await ctx.api.upload(upload.file, transport, upload.controller.signal);
      set(upload, { kind: result.duplicate ? 'duplicate' : 'added', result });
      void store.refresh();
    } catch (err) {
      if (isAbort(err)) set(upload, { kind: 'cancelled' });
      else {
        const failure = ctx.fail(err);
        set(upload, {
          kind: 'failed',
          message: t((m) => uploadFailureText(failure, upload.file.size, m)),
        });
      }
    }
    if (uploads.every((u) => isFinished(u.state))) {
      clearUploads.hidden = false;
      const failed = uploads.filter((u) => u.state.kind === 'failed').length;
      replace(
        uploadsAnnouncer,
        t((m) => (failed ? m.files.finishedWithFailures(failed) : m.files.finished)),
      );
    }
    pump();
  }

  function set(upload: Upload, state: UploadState): void {
    upload.state = state;
    renderUpload(upload);
  }

  function renderUpload(upload: Upload): void {
    const { file, state } = upload;
    upload.row.dataset.state = state.kind;
    const status = describeUpload(state);
    const progress =
      state.kind === 'uploading'
        ? h('progress', {
            max: 1,
            value: state.fraction,
            'aria-label': t((m) => m.files.progressUploading(file.name)),
          })
        : state.kind === 'processing'
          ? h('progress', { 'aria-label': t((m) => m.files.progressProcessing(file.name)) })
          : state.kind === 'queued'
            ? h('progress', {
                max: 1,
                value: 0,
                'aria-label': t((m) => m.files.progressWaiting(file.name)),
              })
            : null;
    const active = state.kind === 'queued' || state.kind === 'uploading';
    replace(
      upload.row,
      h(
        'div',
        { class: 'upload-head' },
        h('span', { class: 'upload-name' }, file.name),
        h('span', { class: 'upload-size' }, formatBytes(file.size)),
      ),
      progress,
      h('p', { class: 'upload-status' }, status),
      active &&
        h(
          'button',
          {
            type: 'button',
            class: 'link-button',
            'aria-label': t((m) => m.files.cancelUpload(file.name)),
            on: { click: () => cancel(upload) },
          },
          t((m) => m.files.cancel),
        ),
    );
  }

  function cancel(upload: Upload): void {
    if (upload.state.kind === 'queued') set(upload, { kind: 'cancelled' });
    upload.controller.abort();
  }

  function clearFinished(): void {
    for (const upload of uploads.filter((u) => isFinished(u.state))) {
      upload.row.remove();
      uploads.splice(uploads.indexOf(upload), 1);
    }
    clearUploads.hidden = true;
  }

  ctx.signal.addEventListener('abort', () => uploads.forEach((u) => u.controller.abort()));

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
  const list = h('ul', { class: 'file-list', 'aria-labelledby': titleId });
  const empty = h('div', { class: 'empty', hidden: true });
  const notice = h('p', { class: 'notice error', role: 'alert', hidden: true });

  function renderList(): void {
    const files = store.files;
    const error = store.error;
    notice.hidden = !error;
    replace(notice, error && t((m) => m.files.listFailed(failureText(error, m))));
    if (!files) {
      replace(count);
      replace(
        list,
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
    replace(list, files.map(fileRow));
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

  function fileRow(file: KnowledgeFile): HTMLLIElement {
    const checkboxId = uid('file');
    const metaId = uid('file-meta');
    const canDelete = file.uploader.id === ctx.me.id || ctx.me.role === 'SUPER_ADMIN';
    const download = downloadLink(
      ctx,
      file,
      { class: 'button small', 'aria-label': t((m) => m.files.downloadNamed(file.name)) },
      t((m) => m.files.download),
    );
    return h(
      'li',
      { class: store.selected.has(file.id) ? 'file selected' : 'file', 'data-file-id': file.id },
      h('input', {
        type: 'checkbox',
        id: checkboxId,
        'aria-describedby': metaId,
        props: { checked: store.selected.has(file.id) },
        on: {
          change: (event) => store.setSelected(file.id, (event.target as HTMLInputElement).checked),
        },
      }),
      h(
        'div',
        { class: 'file-main' },
        h(
          'label',
          { for: checkboxId, class: 'file-name', title: t((m) => m.files.selectTitle) },
          file.name,
        ),
        h(
          'p',
          { class: 'file-meta', id: metaId },
          t((m) => m.files.meta(file.pages, file.chunks, formatBytes(file.size))),
          h('br'),
          `${file.uploader.username} · `,
          h(
            'time',
            { datetime: file.created_at },
            t(() => formatDate(file.created_at)),
          ),
        ),
      ),
      h(
        'div',
        { class: 'file-actions' },
        download,
        canDelete &&
          h(
            'button',
            {
              type: 'button',
              class: 'button small danger-outline',
              'aria-label': t((m) => m.files.deleteNamed(file.name)),
              on: { click: (event) => void remove(file, event.currentTarget as HTMLButtonElement) },
            },
            t((m) => m.files.delete),
          ),
      ),
    );
  }

  async function remove(file: KnowledgeFile, button: HTMLButtonElement): Promise<void> {
    const sure = await confirmDialog({
      title: t((m) => m.files.deleteTitle),
      message: t((m) => m.files.deleteMessage(file.name)),
      confirm: t((m) => m.files.delete),
      danger: true,
    });
    if (!sure) return;
    button.disabled = true;
    try {
      await ctx.api.knowledge.DeleteFile({ id: file.id }, { signal: ctx.signal });
      store.remove(file.id);
      replace(
        uploadsAnnouncer,
        t((m) => m.files.deleted(file.name)),
      );
    } catch (err) {
      button.disabled = false;
      const failure = ctx.fail(err);
      if (failure.status === 401) return;
      notice.hidden = false;
      replace(
        notice,
        t((m) =>
          m.files.notDeleted(
            file.name,
            failure.status === 403 ? m.files.onlyUploaderMayDelete : failureText(failure, m),
          ),
        ),
      );
    }
  }

  store.subscribe(renderList);
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
    dropzone,
    h('div', { class: 'uploads-box' }, uploadList, clearUploads, uploadsAnnouncer),
    notice,
    selection,
    empty,
    list,
  );
  return panel;
}

function hasFiles(event: DragEvent): boolean {
  return [...(event.dataTransfer?.types ?? [])].includes('Files');
}

const isFinished = (state: UploadState) =>
  state.kind === 'added' ||
  state.kind === 'duplicate' ||
  state.kind === 'failed' ||
  state.kind === 'cancelled';

function describeUpload(state: UploadState): Localized {
  switch (state.kind) {
    case 'queued':
      return t((m) => m.files.waiting);
    case 'uploading': {
      const fraction = state.fraction;
      return t((m) => m.files.uploading(fraction));
    }
    case 'processing':
      return t((m) => m.files.processing);
    case 'added': {
      const { pages, chunks } = state.result;
      return t((m) => m.files.addedResult(pages, chunks));
    }
    case 'duplicate': {
      const name = state.result.name;
      return t((m) => m.files.duplicate(name));
    }
    case 'failed':
      return state.message;
    case 'cancelled':
      return t((m) => m.files.cancelled);
  }
}

/**
 * Why an upload failed, by the problem's code. "Too large" names the file's own size: the
 * service's limit is only in its English detail, which is not parsed.
 */
function uploadFailureText(failure: Failure, size: number, m: Messages): string {
  if (failure.code === 'file_too_large' || failure.code === 'body_too_large')
    return `${m.errors.file_too_large} (${formatBytes(size)})`;
  if (failure.code === 'unauthenticated' || failure.code === 'network')
    return m.files.notUploaded(failureText(failure, m));
  return failureText(failure, m);
}
