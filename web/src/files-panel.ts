import type { KnowledgeFile, UploadResult } from './api/services';
import { isAbort, type AppContext } from './context';
import { confirmDialog } from './dialog';
import { downloadLink } from './download';
import { h, replace, uid } from './dom';
import { formatBytes, formatDate, plural } from './format';
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
  | { kind: 'failed'; message: string }
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
  const uploadList = h('ul', { class: 'uploads', 'aria-label': 'Uploads' });
  const clearUploads = h(
    'button',
    { type: 'button', class: 'link-button', hidden: true, on: { click: () => clearFinished() } },
    'Clear finished uploads',
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
    h('p', { class: 'dropzone-title' }, 'Drop PDF files here'),
    h('p', { class: 'dropzone-or' }, 'or'),
    h(
      'button',
      { type: 'button', class: 'button', on: { click: () => picker.click() } },
      'Choose PDF files…',
    ),
    h('p', { class: 'hint' }, 'PDFs with selectable text. Each file is read, split and indexed.'),
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
    uploadsAnnouncer.textContent = `${plural(files.length, 'file')} added to the uploads.`;
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
        set(upload, { kind: 'failed', message: uploadFailureText(failure.code, failure.detail) });
      }
    }
    if (uploads.every((u) => isFinished(u.state))) {
      clearUploads.hidden = false;
      const failed = uploads.filter((u) => u.state.kind === 'failed').length;
      uploadsAnnouncer.textContent = failed
        ? `Uploads finished; ${plural(failed, 'file')} could not be added.`
        : 'Uploads finished.';
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
            'aria-label': `Uploading ${file.name}`,
          })
        : state.kind === 'processing'
          ? h('progress', { 'aria-label': `Processing ${file.name}` })
          : state.kind === 'queued'
            ? h('progress', { max: 1, value: 0, 'aria-label': `${file.name} is waiting` })
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
            'aria-label': `Cancel the upload of ${file.name}`,
            on: { click: () => cancel(upload) },
          },
          'Cancel',
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
    notice.hidden = !store.error;
    notice.textContent = store.error ? `The file list could not be loaded: ${store.error}` : '';
    if (!files) {
      count.textContent = '';
      replace(list, h('li', { class: 'loading' }, 'Loading files…'));
      return;
    }
    count.textContent = plural(files.length, 'file');
    empty.hidden = files.length > 0;
    replace(
      empty,
      h('p', { class: 'empty-title' }, 'No documents yet'),
      h('p', null, 'Upload a PDF to start asking questions about it.'),
    );
    replace(list, files.map(fileRow));
    const chosen = store.selectedFiles();
    selection.hidden = chosen.length === 0;
    replace(
      selection,
      h(
        'span',
        null,
        `${plural(chosen.length, 'file')} selected: questions search only ${chosen.length === 1 ? 'this file' : 'these files'}.`,
      ),
      h(
        'button',
        { type: 'button', class: 'link-button', on: { click: () => store.clearSelection() } },
        'Clear selection',
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
      { class: 'button small', 'aria-label': `Download ${file.name}` },
      'Download',
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
          { for: checkboxId, class: 'file-name', title: 'Select to limit questions to this file' },
          file.name,
        ),
        h(
          'p',
          { class: 'file-meta', id: metaId },
          `${plural(file.pages, 'page')} · ${plural(file.chunks, 'chunk')} · ${formatBytes(file.size)}`,
          h('br'),
          `${file.uploader.username} · `,
          h('time', { datetime: file.created_at }, formatDate(file.created_at)),
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
              'aria-label': `Delete ${file.name}`,
              on: { click: (event) => void remove(file, event.currentTarget as HTMLButtonElement) },
            },
            'Delete',
          ),
      ),
    );
  }

  async function remove(file: KnowledgeFile, button: HTMLButtonElement): Promise<void> {
    const sure = await confirmDialog({
      title: 'Delete this file?',
      message: `“${file.name}” and everything learnt from it will be removed from the knowledge base for everyone.`,
      confirm: 'Delete',
      danger: true,
    });
    if (!sure) return;
    button.disabled = true;
    try {
      await ctx.api.knowledge.DeleteFile({ id: file.id }, { signal: ctx.signal });
      store.remove(file.id);
      uploadsAnnouncer.textContent = `${file.name} was deleted.`;
    } catch (err) {
      button.disabled = false;
      const failure = ctx.fail(err);
      if (failure.status === 401) return;
      notice.hidden = false;
      notice.textContent = `${file.name} could not be deleted: ${failure.status === 403 ? 'only its uploader or a super admin may delete it.' : failure.detail}`;
    }
  }

  store.subscribe(renderList);
  renderList();

  panel.append(
    h(
      'div',
      { class: 'panel-head' },
      h('h2', { id: titleId, tabindex: -1 }, 'Knowledge base'),
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

function describeUpload(state: UploadState): string {
  switch (state.kind) {
    case 'queued':
      return 'Waiting…';
    case 'uploading':
      return `Uploading… ${Math.round(state.fraction * 100)}%`;
    case 'processing':
      return 'Uploaded. Reading and indexing the text…';
    case 'added':
      return `Added: ${plural(state.result.pages, 'page')}, ${plural(state.result.chunks, 'chunk')}.`;
    case 'duplicate':
      return `Already in the knowledge base as “${state.result.name}”; nothing was added.`;
    case 'failed':
      return state.message;
    case 'cancelled':
      return 'Cancelled.';
  }
}

/** The service's own words, with a plainer size for "too large". */
function uploadFailureText(code: string, detail: string): string {
  if (code === 'file_too_large') {
    const limit = /(\d+) bytes/.exec(detail)?.[1];
    return limit
      ? `The file is too large: at most ${formatBytes(Number(limit))} can be uploaded.`
      : detail;
  }
  if (code === 'unauthenticated') return 'Not uploaded: your session has expired.';
  if (code === 'network') return 'Not uploaded: the service could not be reached.';
  return detail;
}
