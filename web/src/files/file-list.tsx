import type { KnowledgeFile } from '../api/services';
import { collectionName, mayManageFile } from '../collection-access';
import type { CollectionStore } from '../collection-store';
import { confirmDialog } from '../components/confirm-dialog';
import { useStore } from '../components/use-store';
import { useApp } from '../context';
import { isInProgress } from '../file-status';
import { t, type Localized } from '../i18n/bind';
import { failureText } from '../i18n/failure';
import { messages, type Messages } from '../i18n/messages';
import type { KnowledgeStore } from '../knowledge-store';
import { FileRow, type FileRowActions } from './file-row';
import { editDetailsDialog } from './edit-details-dialog';
import { moveFileDialog } from './move-file-dialog';
import { versionActions } from '../versions/version-actions';

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

  /**
   * One request about a file. A failure is said in words, a refusal (403) as who may do it;
   * after a 401 the page is logging the user out, and a 404 means the file went meanwhile
   * (deleted elsewhere), which the list, asked for again, shows.
   */
  async function attempt(
    request: () => Promise<void>,
    notDone: (m: Messages, reason: string) => string,
    refused: (m: Messages) => string,
  ): Promise<void> {
    complain(undefined);
    try {
      await request();
    } catch (err) {
      const failure = ctx.fail(err);
      if (failure.status === 401) return;
      if (failure.status === 404) return void store.refresh();
      complain(t((m) => notDone(m, failure.status === 403 ? refused(m) : failureText(failure, m))));
    }
  }

  /** Edit details: the dialog changes relations at once and the fields when saved. */
  async function editDetails(file: KnowledgeFile, working: (on: boolean) => void) {
    complain(undefined);
    const reason = (err: unknown): Localized => {
      const failure = ctx.fail(err);
      return failure.status === 403
        ? t((m) => m.metadata.onlyManagerMay)
        : t((m) => failureText(failure, m));
    };
    const options = { signal: ctx.signal };
    const updated = await editDetailsDialog(file, {
      save: (change) =>
        ctx.api.knowledge.PutFileMetadata({ body: { id: file.id, ...change } }, options),
      addRelation: (request) =>
        ctx.api.knowledge.PostFileRelation({ body: { file_id: file.id, ...request } }, options),
      async removeRelation(id) {
        await ctx.api.knowledge.DeleteFileRelation({ id }, options);
        const [after] = await ctx.api.knowledge.GetList({ file_id: file.id }, options);
        if (!after) throw new Error('the file is gone');
        return after;
      },
      reason,
    });
    if (!updated) return;
    working(true);
    store.update(updated);
    say(t((m) => m.metadata.saved(file.name)));
    // Other files' validity may follow from this one's relations: the list is asked again.
    await store.refresh();
  }

  const actions: FileRowActions = {
    select: (file, on) => store.setSelected(file.id, on),
    editDetails,
    ...versionActions({
      ctx,
      store,
      say,
      complain,
      canManage: (file) => collection !== undefined && mayManageFile(ctx.me, collection, file),
    }),

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
      working(true);
      await attempt(
        async () => {
          await ctx.api.knowledge.DeleteFile({ id: file.id }, { signal: ctx.signal });
          store.remove(file.id);
          say(t((m) => m.files.deleted(file.name)));
        },
        (m, reason) => m.files.notDeleted(file.name, reason),
        (m) => m.files.onlyUploaderMayDelete,
      );
    },

    async retry(file, working) {
      working(true);
      await attempt(
        async () => {
          const progress = await ctx.api.knowledge.PostFileRetry(
            { body: { id: file.id } },
            { signal: ctx.signal },
          );
          say(t((m) => m.files.retrying(file.name)));
          store.update(progress);
        },
        (m, reason) => m.files.notRetried(file.name, reason),
        (m) => m.files.onlyUploaderMayRetry,
      );
    },

    async switchFile(file, enabled, working) {
      working(true);
      await attempt(
        async () => {
          const now = await ctx.api.knowledge.PutFileEnabled(
            { body: { id: file.id, enabled } },
            { signal: ctx.signal },
          );
          store.update(now);
          say(t((m) => (enabled ? m.files.switchedOn(file.name) : m.files.switchedOff(file.name))));
        },
        (m, reason) => m.files.notSwitched(file.name, reason),
        (m) => m.files.onlyManagerMaySwitch,
      );
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
