import { useEffect, useRef, useState } from 'preact/hooks';
import { mayAddFiles } from '../collection-access';
import type { CollectionStore } from '../collection-store';
import { Pager } from '../components/pager';
import { StatusRegion } from '../components/status-region';
import { useUniqueId } from '../components/unique-id';
import { useStore } from '../components/use-store';
import { now, type Localized } from '../i18n/bind';
import { failureText } from '../i18n/failure';
import { messages } from '../i18n/messages';
import { FILES_PER_PAGE, type KnowledgeStore } from '../knowledge-store';
import { CollectionSwitcher } from './collection-switcher';
import { Dropzone } from './dropzone';
import { FileList } from './file-list';
import { FilesToolbar, isNarrowed } from './files-toolbar';
import { UploadList } from './upload-list';
import type { UploadQueue } from './upload-queue';

export interface FilesPanelProps {
  store: KnowledgeStore;
  collections: CollectionStore;
  /** Made once per session: uploads go on, and their rows stay, while another page is shown. */
  uploads: UploadQueue;
}

/**
 * The knowledge base, one collection at a time: choose it, upload documents into it and
 * follow them until they are ready; see, download, retry, move, delete and select files.
 * A viewer of the collection gets no way to upload (the service would refuse it).
 */
export function FilesPanel({ store, collections, uploads }: FilesPanelProps) {
  useStore(store);
  // A role given or taken shows or hides the upload control.
  useStore(collections);
  const titleId = useUniqueId('kb-title');
  const panel = useRef<HTMLElement>(null);
  const dragDepth = useRef(0);
  const [dragging, setDragging] = useState(false);
  /** What happened, for screen readers (a file deleted, a collection created). */
  const [said, say] = useState<Localized | undefined>(undefined);
  // Why an action on a file failed: it stays until the next action (the list changes every
  // second while files are processed).
  const [complaint, complain] = useState<Localized | undefined>(undefined);
  const m = messages();
  const mayUpload = store.collection !== undefined && mayAddFiles(store.collection);
  const enqueue = (files: File[]) => {
    if (mayUpload) uploads.enqueue(files);
  };

  // A file dropped elsewhere on the page is not opened by the browser.
  useEffect(() => {
    const ignoreDrop = (event: DragEvent) => {
      if (hasFiles(event) && !panel.current?.contains(event.target as Node)) {
        event.preventDefault();
      }
    };
    window.addEventListener('dragover', ignoreDrop);
    window.addEventListener('drop', ignoreDrop);
    return () => {
      window.removeEventListener('dragover', ignoreDrop);
      window.removeEventListener('drop', ignoreDrop);
    };
  }, []);

  const files = store.files;
  const error = store.error;
  const chosen = store.selectedFiles();
  const counts = store.counts;
  /** Files in the collection, whatever the search and filters (undefined until known). */
  const inCollection = counts && counts.queued + counts.processing + counts.ready + counts.failed;
  const narrowed = isNarrowed(store.view);
  const total = store.total ?? 0;
  return (
    <section
      ref={panel}
      class="panel files-panel"
      aria-labelledby={titleId}
      onDragEnter={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        dragDepth.current += 1;
        setDragging(true);
      }}
      onDragOver={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={() => {
        dragDepth.current = Math.max(0, dragDepth.current - 1);
        if (dragDepth.current === 0) setDragging(false);
      }}
      onDrop={(event) => {
        event.preventDefault();
        dragDepth.current = 0;
        setDragging(false);
        enqueue([...(event.dataTransfer?.files ?? [])]);
      }}
    >
      <div class="panel-head">
        <h2 id={titleId} tabindex={-1}>
          {m.files.knowledgeBase}
        </h2>
        <span class="count">
          {inCollection !== undefined &&
            (narrowed ? m.files.matching(total) : m.files.fileCount(inCollection))}
        </span>
      </div>
      <CollectionSwitcher collections={collections} say={say} />
      <Dropzone
        dragging={dragging}
        hidden={!mayUpload}
        collapsed={inCollection !== undefined && inCollection > 0}
        onFiles={enqueue}
      />
      <UploadList queue={uploads} />
      <p class="notice error list-notice" role="alert" hidden={!error}>
        {error && m.files.listFailed(failureText(error, m))}
      </p>
      <p class="notice error action-notice" role="alert" hidden={!complaint}>
        {complaint && now(complaint)}
      </p>
      <StatusRegion text={said} />
      <div class="selection-bar" hidden={chosen.length === 0}>
        <span>{m.files.selected(chosen.length)}</span>
        <button type="button" class="link-button" onClick={() => store.clearSelection()}>
          {m.files.clearSelection}
        </button>
      </div>
      {inCollection !== undefined && inCollection > 0 && <FilesToolbar store={store} />}
      {/* Empty until the list is known: "no documents" is said once it is so. */}
      <div class="empty" hidden={!files || files.length > 0}>
        {files &&
          (narrowed ? (
            <>
              <p class="empty-title">{m.files.noMatchTitle}</p>
              <p>{m.files.noMatch}</p>
              <button
                type="button"
                class="button small"
                onClick={() => void store.setView({ q: '', status: undefined, format: undefined })}
              >
                {m.files.clearFilters}
              </button>
            </>
          ) : (
            <>
              <p class="empty-title">{m.files.emptyTitle}</p>
              <p>{m.files.empty}</p>
            </>
          ))}
      </div>
      <FileList
        store={store}
        collections={collections}
        labelledBy={titleId}
        say={say}
        complain={complain}
      />
      <Pager
        label={m.files.pages}
        page={store.view.page}
        pages={Math.max(1, Math.ceil(total / FILES_PER_PAGE))}
        onPage={(page) => {
          void store.setView({ page });
          panel.current?.scrollTo?.({ top: 0 });
        }}
      />
    </section>
  );
}

function hasFiles(event: DragEvent): boolean {
  return [...(event.dataTransfer?.types ?? [])].includes('Files');
}
