import type { KnowledgeFile } from './api/services';
import { collectionName, mayManageFile } from './collection-access';
import type { CollectionStore } from './collection-store';
import type { AppContext } from './context';
import { confirmDialog } from './components/confirm-dialog';
import { createFileRow, type FileRow } from './file-row';
import { isInProgress } from './file-status';
import { t, type Localized } from './i18n/bind';
import { failureText } from './i18n/failure';
import type { KnowledgeStore } from './knowledge-store';
import { moveFileDialog } from './files/move-file-dialog';

export interface FileList {
  readonly element: HTMLUListElement;
  /** Brings the rows in line with the store's files. */
  render(files: readonly KnowledgeFile[]): void;
}

export interface FileListHooks {
  /** Tells screen readers something that happened (a file deleted or moved, a retry started). */
  say(text: Localized): void;
  /** Shows why an action failed (undefined hides it). */
  complain(text: Localized | undefined): void;
}

/**
 * The files of the knowledge base, one row each, kept by file id: while files are processed
 * the list changes every second or so, and rebuilding it would take the focus away from
 * whatever button the user is on.
 */
export function createFileList(
  ctx: AppContext,
  store: KnowledgeStore,
  collections: CollectionStore,
  labelledBy: string,
  hooks: FileListHooks,
): FileList {
  const element = document.createElement('ul');
  element.className = 'file-list';
  element.setAttribute('aria-labelledby', labelledBy);
  const rows = new Map<string, FileRow>();

  function render(files: readonly KnowledgeFile[]): void {
    const ids = new Set(files.map((file) => file.id));
    for (const [id, row] of rows) {
      if (ids.has(id)) continue;
      row.element.remove();
      rows.delete(id);
    }
    // Existing rows are moved only when out of place: a moved node loses the focus.
    let at: ChildNode | null = element.firstChild;
    for (const file of files) {
      let row = rows.get(file.id);
      if (!row) {
        // Rows are made afresh when another collection is shown: its role holds for them.
        const collection = store.collection;
        const canManage = collection !== undefined && mayManageFile(ctx.me, collection, file);
        row = createFileRow(ctx, file, canManage, {
          select,
          remove: (f, button) => void remove(f, button),
          retry: (f, button) => void retry(f, button),
          move: (f, button) => void move(f, button),
        });
        rows.set(file.id, row);
      }
      row.update(file, store.selected.has(file.id));
      if (row.element === at) at = at.nextSibling;
      else element.insertBefore(row.element, at);
    }
    // Whatever is left after the rows (the "loading" line) goes.
    while (at) {
      const next: ChildNode | null = at.nextSibling;
      at.remove();
      at = next;
    }
  }

  function select(file: KnowledgeFile, on: boolean): void {
    store.setSelected(file.id, on);
  }

  async function remove(file: KnowledgeFile, button: HTMLButtonElement): Promise<void> {
    // Asked about the file as it is now: it may have become ready since the row was drawn.
    const current = store.fileById(file.id) ?? file;
    const processing = isInProgress(current);
    const sure = await confirmDialog((m) => ({
      title: processing ? m.files.deleteProcessingTitle : m.files.deleteTitle,
      message: processing
        ? m.files.deleteProcessingMessage(file.name)
        : m.files.deleteMessage(file.name),
      confirm: m.files.delete,
      danger: true,
    }));
    if (!sure) return;
    hooks.complain(undefined);
    button.disabled = true;
    try {
      await ctx.api.knowledge.DeleteFile({ id: file.id }, { signal: ctx.signal });
      store.remove(file.id);
      hooks.say(t((m) => m.files.deleted(file.name)));
    } catch (err) {
      button.disabled = false;
      const failure = ctx.fail(err);
      if (failure.status === 401) return;
      // Gone already (deleted elsewhere): the list shows that.
      if (failure.status === 404) return void store.refresh();
      hooks.complain(
        t((m) =>
          m.files.notDeleted(
            file.name,
            failure.status === 403 ? m.files.onlyUploaderMayDelete : failureText(failure, m),
          ),
        ),
      );
    }
  }

  async function retry(file: KnowledgeFile, button: HTMLButtonElement): Promise<void> {
    // Marked busy rather than disabled: a disabled button loses the focus to the page, and
    // the row hands it on to Delete once the retry is under way.
    if (button.getAttribute('aria-disabled') === 'true') return;
    hooks.complain(undefined);
    button.setAttribute('aria-disabled', 'true');
    try {
      const progress = await ctx.api.knowledge.PostFileRetry(
        { body: { id: file.id } },
        { signal: ctx.signal },
      );
      hooks.say(t((m) => m.files.retrying(file.name)));
      store.update(progress);
    } catch (err) {
      const failure = ctx.fail(err);
      if (failure.status === 401) return;
      if (failure.status === 404) return void store.refresh();
      hooks.complain(
        t((m) =>
          m.files.notRetried(
            file.name,
            failure.status === 403 ? m.files.onlyUploaderMayRetry : failureText(failure, m),
          ),
        ),
      );
    } finally {
      button.removeAttribute('aria-disabled');
    }
  }

  async function move(file: KnowledgeFile, button: HTMLButtonElement): Promise<void> {
    // The collections list may be older than a role given meanwhile: asked for again first.
    await collections.refresh();
    const targets = collections.writable().filter((c) => c.id !== file.collection.id);
    const target = await moveFileDialog(file.name, targets);
    if (!target) return;
    hooks.complain(undefined);
    button.disabled = true;
    try {
      await ctx.api.knowledge.PostFileMove(
        { body: { id: file.id, collection_id: target.id } },
        { signal: ctx.signal },
      );
      store.remove(file.id);
      const where = collectionName(target);
      hooks.say(t((m) => m.collections.moved(file.name, where.select(m))));
      // The file counts of both collections changed.
      void collections.refresh();
    } catch (err) {
      button.disabled = false;
      const failure = ctx.fail(err);
      if (failure.status === 401) return;
      hooks.complain(t((m) => m.collections.notMoved(file.name, failureText(failure, m))));
    }
  }

  return { element, render };
}
