import { useEffect, useState } from 'preact/hooks';
import type { KnowledgeFile } from '../api/services';
import { mayManageFile } from '../collection-access';
import { Denied, OutcomeLines, Page, useOutcome } from '../components/page';
import { Pager } from '../components/pager';
import { useApp } from '../context';
import { t, type Localized } from '../i18n/bind';
import { failureText } from '../i18n/failure';
import { formatDate } from '../i18n/format';
import { messages, type Messages } from '../i18n/messages';
import { chunksLink, documentLink } from '../main/route';
import { chunkEditDialog } from './chunk-edit-dialog';
import type { FileChunk, FileChunks } from './chunk-types';

/** Chunks a page: enough to read on, few enough to answer at once for a 500-page file. */
export const CHUNKS_PER_PAGE = 20;

type Shown =
  | { kind: 'loading' }
  /** Gone, or not the caller's to read: the service answers 404 alike, and so does the page. */
  | { kind: 'unavailable' }
  | { kind: 'shown'; file: KnowledgeFile; canManage: boolean; chunks: FileChunks | undefined };

/**
 * A file's chunks as search and chat see them (`#/chunks/<file_id>?page=<n>`), in order, a
 * page at a time. Whoever may manage the file corrects a chunk's text and switches chunks off
 * and on; readers read. Each chunk opens in the document viewer at its place.
 */
export function ChunksPage({ id, at = 1 }: { id: string; at?: number }) {
  const ctx = useApp();
  const { api, signal } = ctx;
  const outcome = useOutcome();
  const [shown, setShown] = useState<Shown>({ kind: 'loading' });
  const m = messages();

  function complain(err: unknown, what: (reason: string, m: Messages) => string): void {
    const failure = ctx.fail(err);
    if (failure.status !== 401) outcome.failed(t((m) => what(failureText(failure, m), m)));
  }

  /** The file (and whether the caller may change it), then the page of chunks asked for. */
  async function load(): Promise<void> {
    try {
      const [file] = await api.knowledge.GetList({ file_id: id }, { signal });
      if (!file) return setShown({ kind: 'unavailable' });
      const collection = await api.knowledge.GetCollection({ id: file.collection.id }, { signal });
      const canManage = mayManageFile(ctx.me, collection, file);
      setShown((before) => ({
        kind: 'shown',
        file,
        canManage,
        chunks: before.kind === 'shown' ? before.chunks : undefined,
      }));
      const chunks = await api.knowledge.GetChunks(
        { file_id: id, page: at, size: CHUNKS_PER_PAGE },
        { signal },
      );
      setShown({ kind: 'shown', file, canManage, chunks });
    } catch (err) {
      if (signal.aborted) return;
      const { status } = ctx.fail(err);
      if (status === 404 || status === 403) {
        outcome.clear();
        setShown({ kind: 'unavailable' });
      } else complain(err, (reason, m) => m.chunks.loadFailed(reason));
    }
  }
  useEffect(() => void load(), [id, at]);

  /** Puts a changed chunk in its place. */
  function replace(chunk: FileChunk): void {
    setShown((before) =>
      before.kind === 'shown' && before.chunks
        ? {
            ...before,
            chunks: {
              ...before.chunks,
              items: before.chunks.items.map((c) => (c.id === chunk.id ? chunk : c)),
            },
          }
        : before,
    );
  }

  /** Why a change was refused or failed, in words (a refusal as who may do it). */
  const reason = (err: unknown): Localized => {
    const failure = ctx.fail(err);
    return failure.status === 403
      ? t((m) => m.chunks.onlyManagers)
      : t((m) => failureText(failure, m));
  };

  async function edit(chunk: FileChunk): Promise<void> {
    outcome.clear();
    const saved = await chunkEditDialog(chunk, async (text) => {
      try {
        return await api.knowledge.PutChunk({ body: { id: chunk.id, text } }, { signal });
      } catch (err) {
        const why = reason(err);
        return t((m) => m.chunks.notChanged(chunk.index, why.select(m)));
      }
    });
    if (!saved) return;
    replace(saved);
    outcome.done(t((m) => m.chunks.saved(chunk.index)));
  }

  async function switchChunk(chunk: FileChunk, enabled: boolean): Promise<void> {
    outcome.clear();
    try {
      const saved = await api.knowledge.PutChunk({ body: { id: chunk.id, enabled } }, { signal });
      replace(saved);
      outcome.done(
        t((m) => (enabled ? m.chunks.switchedOn(chunk.index) : m.chunks.switchedOff(chunk.index))),
      );
    } catch (err) {
      const why = reason(err);
      outcome.failed(t((m) => m.chunks.notChanged(chunk.index, why.select(m))));
    }
  }

  if (shown.kind === 'unavailable') {
    return (
      <Page class="chunks-page" heading={m.chunks.title}>
        <Denied message={m.chunks.notFound} back={m.chunks.back} />
      </Page>
    );
  }
  const file = shown.kind === 'shown' ? shown.file : undefined;
  const chunks = shown.kind === 'shown' ? shown.chunks : undefined;
  const pages = chunks ? Math.max(1, Math.ceil(chunks.total / CHUNKS_PER_PAGE)) : 1;
  return (
    <Page class="chunks-page" heading={file ? m.chunks.heading(file.name) : m.chunks.title}>
      <p class="page-back">
        <a href="#/">{m.chunks.back}</a>
      </p>
      <OutcomeLines outcome={outcome} />
      {file && (
        <div class="chunks-intro">
          <p>
            {chunks && <strong>{m.chunks.count(chunks.total)}</strong>}{' '}
            {shown.kind === 'shown' && shown.canManage ? m.chunks.intro : m.chunks.readOnly}
          </p>
          {file.enabled === false && <p class="notice warning">{m.chunks.fileOff}</p>}
        </div>
      )}
      {!chunks ? (
        <p class="loading">{m.chunks.loading}</p>
      ) : (
        <ol class="chunk-list">
          {chunks.items.map((chunk) => (
            <ChunkItem
              key={chunk.id}
              chunk={chunk}
              file={file!}
              canManage={shown.kind === 'shown' && shown.canManage}
              onEdit={() => void edit(chunk)}
              onSwitch={(enabled) => switchChunk(chunk, enabled)}
            />
          ))}
        </ol>
      )}
      <Pager
        label={m.chunks.pages}
        page={at}
        pages={pages}
        onPage={(page) => {
          location.hash = chunksLink(id, page);
        }}
      />
    </Page>
  );
}

interface ChunkItemProps {
  chunk: FileChunk;
  file: KnowledgeFile;
  canManage: boolean;
  onEdit(): void;
  onSwitch(enabled: boolean): Promise<void>;
}

/** One chunk: where it is, where its text came from, the text, and what may be done to it. */
function ChunkItem({ chunk, file, canManage, onEdit, onSwitch }: ChunkItemProps) {
  const m = messages();
  const [busy, setBusy] = useState(false);
  const where = file.format === 'pdf' ? m.chunks.page(chunk.page) : m.chunks.section(chunk.page);
  return (
    <li
      class={chunk.enabled ? 'chunk' : 'chunk off'}
      data-chunk-id={chunk.id}
      data-enabled={String(chunk.enabled)}
    >
      <div class="chunk-head">
        <span class="chunk-number">{m.chunks.number(chunk.index)}</span>
        <span class="chunk-where">{where}</span>
        {chunk.heading_path && <span class="chunk-heading">{chunk.heading_path}</span>}
        {chunk.text_source === 'ocr' && (
          <span class="badge" title={m.chunks.ocrTitle}>
            {m.chunks.ocr}
          </span>
        )}
        {chunk.text_source === 'repaired' && (
          <span class="badge" title={m.chunks.repairedTitle}>
            {m.chunks.repaired}
          </span>
        )}
        {!chunk.enabled && (
          <span class="badge off" title={m.chunks.offTitle}>
            {m.chunks.off}
          </span>
        )}
      </div>
      <p class="chunk-text">{chunk.text}</p>
      {chunk.edited_by && chunk.edited_at && (
        <p class="chunk-edited">{m.chunks.edited(chunk.edited_by, formatDate(chunk.edited_at))}</p>
      )}
      {chunk.original_text !== null && (
        <details class="chunk-original">
          <summary>{m.chunks.original}</summary>
          <p>{chunk.original_text}</p>
        </details>
      )}
      <div class="chunk-actions">
        <a
          class="button small"
          href={documentLink(file.id, chunk.page, chunk.id)}
          aria-label={m.chunks.openNamed(chunk.index)}
        >
          {m.chunks.open}
        </a>
        {canManage && (
          <>
            <button
              type="button"
              class="button small"
              aria-label={m.chunks.editNamed(chunk.index)}
              onClick={onEdit}
            >
              {m.chunks.edit}
            </button>
            <button
              type="button"
              class="button small"
              disabled={busy}
              aria-label={
                chunk.enabled
                  ? m.chunks.switchOffNamed(chunk.index)
                  : m.chunks.switchOnNamed(chunk.index)
              }
              onClick={() => {
                setBusy(true);
                void onSwitch(!chunk.enabled).finally(() => setBusy(false));
              }}
            >
              {chunk.enabled ? m.chunks.switchOff : m.chunks.switchOn}
            </button>
          </>
        )}
      </div>
    </li>
  );
}
