import { collectionName, mayManageFile } from '../collection-access';
import type { CollectionStore } from '../collection-store';
import { confirmDialog } from '../components/confirm-dialog';
import { useStore } from '../components/use-store';
import { useApp } from '../context';
import { isInProgress } from '../file-status';
import { t, type Localized } from '../i18n/bind';
import { failureText } from '../i18n/failure';
import { messages } from '../i18n/messages';
import type { KnowledgeStore } from '../knowledge-store';
import { FileRow, type FileRowActions } from './file-row';
import { moveFileDialog } from './move-file-dialog';

export interface FileListProps {
  store: KnowledgeStore;
  collections: CollectionStore;
  labelledBy: string;
  /** Tells screen readers something that happened (a file deleted or moved, a retry started). */
  say(text: Localized): void;
  /** Shows why an action failed (undefined hides it). */
  complain(text: Localized | undefined): void;
}

/**
 * The files of the knowledge base, one row each, keyed by file id: while files are processed
 * the list changes every second or so, and a row made afresh would take the focus away from
 * whatever button the user is on.
 */
export function FileList({ store, collections, labelledBy, say, complain }: FileListProps) {
  useStore(store);
  const ctx = useApp();
  const files = store.files;
  const collection = store.collection;

  const actions: FileRowActions = {
    select: (file, on) => store.setSelected(file.id, on),

    async remove(file, working) {
      // Asked about the file as it is now: it may have become ready since the row was drawn.
      const processing = isInProgress(store.fileById(file.id) ?? file);
      const sure = await confirmDialog((m) => ({
        title: processing ? m.files.deleteProcessingTitle : m.files.deleteTitle,
        message: processing
          ? m.files.deleteProcessingMessage(file.name)
          : m.files.deleteMessage(file.name),
        confirm: m.files.delete,
        danger: true,
      }));
      if (!sure) return;
      complain(undefined);
      working(true);
      try {
        await ctx.api.knowledge.DeleteFile({ id: file.id }, { signal: ctx.signal });
        store.remove(file.id);
        say(t((m) => m.files.deleted(file.name)));
      } catch (err) {
        const failure = ctx.fail(err);
        if (failure.status === 401) return;
        // Gone already (deleted elsewhere): the list shows that.
        if (failure.status === 404) return void store.refresh();
        complain(
          t((m) =>
            m.files.notDeleted(
              file.name,
              failure.status === 403 ? m.files.onlyUploaderMayDelete : failureText(failure, m),
            ),
          ),
        );
      }
    },

    async retry(file, working) {
      complain(undefined);
      working(true);
      try {
        const progress = await ctx.api.knowledge.PostFileRetry(
          { body: { id: file.id } },
          { signal: ctx.signal },
        );
        say(t((m) => m.files.retrying(file.name)));
        store.update(progress);
      } catch (err) {
        const failure = ctx.fail(err);
        if (failure.status === 401) return;
        if (failure.status === 404) return void store.refresh();
        complain(
          t((m) =>
            m.files.notRetried(
              file.name,
              failure.status === 403 ? m.files.onlyUploaderMayRetry : failureText(failure, m),
            ),
          ),
        );
      }
    },

    async move(file, working) {
      // The collections list may be older than a role given meanwhile: asked for again first.
      await collections.refresh();
      const targets = collections.writable().filter((c) => c.id !== file.collection.id);
      const target = await moveFileDialog(file.name, targets);
      if (!target) return;
      complain(undefined);
      working(true);
      try {
        await ctx.api.knowledge.PostFileMove(
          { body: { id: file.id, collection_id: target.id } },
          { signal: ctx.signal },
        );
        store.remove(file.id);
        const where = collectionName(target);
        say(t((m) => m.collections.moved(file.name, where.select(m))));
        // The file counts of both collections changed.
        void collections.refresh();
      } catch (err) {
        const failure = ctx.fail(err);
        if (failure.status === 401) return;
        complain(t((m) => m.collections.notMoved(file.name, failureText(failure, m))));
      }
    },
  };

  return (
    <ul class="file-list" aria-labelledby={labelledBy}>
      {files ? (
        files.map((file) => (
          <FileRow
            key={file.id}
            file={file}
            selected={store.selected.has(file.id)}
            canManage={collection !== undefined && mayManageFile(ctx.me, collection, file)}
            actions={actions}
          />
        ))
      ) : (
        <li class="loading">{messages().files.loading}</li>
      )}
    </ul>
  );
}
