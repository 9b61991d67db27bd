import { signal } from '@preact/signals';
import { isAbort, type AppContext } from '../context';
import { fileErrorText, progressShown } from '../file-progress-text';
import { t, type Localized } from '../i18n/bind';
import type { KnowledgeStore } from '../knowledge-store';
import { xhrTransport } from '../xhr';
import {
  isFinished,
  uploadFailureText,
  type Shown,
  type UploadState,
  type UploadView,
} from './upload-state';

/** At most this many files send their bytes at once; the rest wait their turn. */
const PARALLEL_UPLOADS = 2;

interface Upload {
  key: number;
  file: File;
  /** The collection chosen when the file was added: it goes there whatever is chosen later. */
  collectionId: string | undefined;
  state: UploadState;
  controller: AbortController;
  /** What the row showed last: outcomes are announced once, when they change. */
  shown?: Shown;
}

/**
 * The uploads of this page: each file's bytes, then — once the service has stored it and
 * answered at once — its reading and indexing, followed through the store, until it is ready
 * or failed. What is worth hearing (a file ready, a file failed, all done) is announced once.
 * Each upload goes into the collection chosen when it was added, and its row shows while that
 * collection is the one shown (the store follows the files of that one only).
 */
export function createUploadQueue(ctx: AppContext, store: KnowledgeStore) {
  const uploads: Upload[] = [];
  let keys = 0;
  const rows = signal<readonly UploadView[]>([]);
  const announcement = signal<Localized | undefined>(undefined);
  const finished = signal(false);

  function enqueue(files: File[]): void {
    for (const file of files) {
      keys += 1;
      uploads.push({
        key: keys,
        file,
        collectionId: store.collection?.id,
        state: { kind: 'queued' },
        controller: new AbortController(),
      });
    }
    const added = files.length;
    say(t((m) => m.files.added(added)));
    finished.value = false;
    publish();
    pump();
  }

  function pump(): void {
    const sending = uploads.filter(
      (u) => u.state.kind === 'uploading' || u.state.kind === 'sent',
    ).length;
    const next = uploads.find((u) => u.state.kind === 'queued');
    if (!next || sending >= PARALLEL_UPLOADS) return;
    void send(next);
    pump();
  }

  async function send(upload: Upload): Promise<void> {
    set(upload, { kind: 'uploading', fraction: 0 });
    const transport = xhrTransport({
      onProgress: (fraction) => {
        if (upload.state.kind === 'uploading') set(upload, { kind: 'uploading', fraction });
      },
      onSent: () => set(upload, { kind: 'sent' }),
    });
    try {
      const result = await ctx.api.upload(
        upload.file,
        upload.collectionId,
        transport,
        upload.controller.signal,
      );
      set(
        upload,
        result.duplicate
          ? { kind: 'duplicate', result }
          : { kind: 'stored', result, listMarker: store.listMarker(), listed: false },
      );
      // Followed by the store whatever page, search or filter the panel shows.
      if (!result.duplicate && isShown(upload)) store.follow(result.id);
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
    pump();
  }

  function set(upload: Upload, state: UploadState): void {
    upload.state = state;
    publish();
  }

  const isShown = (upload: Upload) =>
    upload.collectionId === undefined || upload.collectionId === store.collection?.id;

  /** A stored file as the store knows it now; before the list has it, as the upload answered. */
  function shownOf(upload: Upload): Shown {
    const { state } = upload;
    if (state.kind !== 'stored') return state.kind;
    // Another collection's files are listed, or this one's are on their way: as it was.
    if (!isShown(upload) || !store.files) return upload.shown ?? 'processing';
    store.follow(state.result.id); // (again, after its collection was shown again)
    const file = store.fileById(state.result.id);
    if (file) state.listed = true;
    // Found gone by the store (the list's pages no longer tell: it may be on another one).
    else if (store.isGone(state.result.id)) return 'deleted';
    const status = (file ?? state.result).status;
    return status === 'ready' ? 'added' : status === 'failed' ? 'failed' : 'processing';
  }

  /** Every row as it is now; outcomes that changed are announced. */
  function publish(): void {
    const views = uploads.map(viewOf);
    for (const upload of uploads) {
      const shown = views.find((view) => view.key === upload.key)!.shown;
      if (shown === upload.shown) continue;
      const before = upload.shown;
      upload.shown = shown;
      if (before !== undefined) announce(upload, shown);
    }
    rows.value = views;
  }

  function viewOf(upload: Upload): UploadView {
    const { file, state } = upload;
    const shown = shownOf(upload);
    const stored = state.kind === 'stored' ? state : undefined;
    const current = stored && (store.fileById(stored.result.id) ?? stored.result);
    const progress = current && progressShown(current, store.fileById(current.id)?.format);
    const name = file.name;
    let bar: UploadView['bar'];
    if (state.kind === 'queued') {
      bar = {
        label: t((m) => m.files.progressWaiting(name)),
        fraction: 0,
        text: t((m) => m.files.waiting),
      };
    } else if (state.kind === 'uploading') {
      const fraction = state.fraction;
      bar = {
        label: t((m) => m.files.progressUploading(name)),
        fraction,
        text: t((m) => m.files.uploading(fraction)),
      };
    } else if (state.kind === 'sent') {
      bar = {
        label: t((m) => m.files.progressProcessing(name)),
        fraction: undefined,
        text: t((m) => m.files.sent),
      };
    } else if (shown === 'processing' && progress) {
      bar = { label: t((m) => m.files.progressProcessing(name)), ...progress };
    }
    return {
      key: upload.key,
      file,
      // Once stored and on the page shown, the file's own row shows it (and its progress):
      // a file on its way appears once. Elsewhere (another page, a filter) this row does.
      hidden: !isShown(upload) || (stored !== undefined && store.isListed(stored.result.id)),
      shown,
      cancellable: state.kind === 'queued' || state.kind === 'uploading',
      bar,
      status: statusText(upload, shown, progress?.text),
    };
  }

  function statusText(upload: Upload, shown: Shown, progress?: Localized): Localized {
    const { state } = upload;
    switch (state.kind) {
      case 'queued':
        return t((m) => m.files.waiting);
      case 'uploading': {
        const fraction = state.fraction;
        return t((m) => m.files.uploading(fraction));
      }
      case 'sent':
        return t((m) => m.files.sent);
      case 'duplicate': {
        const name = state.result.name;
        return t((m) => m.files.duplicate(name));
      }
      case 'failed':
        return state.message;
      case 'cancelled':
        return t((m) => m.files.cancelled);
      case 'stored':
        break;
    }
    const file = store.fileById(state.result.id);
    if (shown === 'deleted') return t((m) => m.errors.file_deleted);
    if (shown === 'failed') return t((m) => fileErrorText(file?.error, m));
    if (shown === 'added') {
      const { pages, chunks } = file ?? state.result;
      const sections = file !== undefined && file.format !== 'pdf';
      return t((m) =>
        sections ? m.files.addedSections(pages, chunks) : m.files.addedResult(pages, chunks),
      );
    }
    return progress ?? t((m) => m.files.queued);
  }

  /** Outcomes, once each; and when the last upload is done, that all are. */
  function announce(upload: Upload, shown: Shown): void {
    const name = upload.file.name;
    const parts: Localized[] = [];
    if (shown === 'added') parts.push(t((m) => m.files.announceReady(name)));
    if (shown === 'failed' || shown === 'deleted') {
      const reason = statusText(upload, shown);
      parts.push(t((m) => m.files.announceFailed(name, reason.select(m))));
    }
    if (isFinished(shown) && uploads.every((u) => u.shown && isFinished(u.shown))) {
      finished.value = true;
      const failed = uploads.filter((u) => u.shown === 'failed' || u.shown === 'deleted').length;
      parts.push(t((m) => (failed ? m.files.finishedWithFailures(failed) : m.files.finished)));
    }
    if (parts.length > 0) say(t((m) => parts.map((part) => part.select(m)).join(' ')));
  }

  function say(text: Localized): void {
    announcement.value = text;
  }

  function cancel(key: number): void {
    const upload = uploads.find((u) => u.key === key);
    if (!upload) return;
    if (upload.state.kind === 'queued') set(upload, { kind: 'cancelled' });
    upload.controller.abort();
  }

  function clearFinished(): void {
    for (const upload of uploads.filter((u) => u.shown && isFinished(u.shown))) {
      uploads.splice(uploads.indexOf(upload), 1);
    }
    finished.value = false;
    publish();
  }

  // Stored files move on with the store, and rows show with their collection: they follow it.
  const unsubscribe = store.subscribe(publish);
  ctx.signal.addEventListener('abort', () => {
    unsubscribe();
    uploads.forEach((u) => u.controller.abort());
  });

  return { rows, announcement, finished, enqueue, cancel, clearFinished };
}

export type UploadQueue = ReturnType<typeof createUploadQueue>;
