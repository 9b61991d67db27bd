import { useEffect, useState } from 'preact/hooks';
import type { z } from 'zod';
import type {
  EmbeddingStatus as EmbeddingStatusSchema,
  ReindexJob as ReindexJobSchema,
} from '#shared/contracts/knowledge-upkeep';
import type { Collection } from '../api/services';
import { ProgressBar } from '../components/progress-bar';
import { isAbort, useApp } from '../context';
import { failureText } from '../i18n/failure';
import { messages } from '../i18n/messages';

export type EmbeddingStatus = z.output<typeof EmbeddingStatusSchema>;
export type ReindexJob = z.output<typeof ReindexJobSchema>;

/** How often a running re-index is looked at. */
export const POLL_MS = 1_000;

/** What happened last: the job stopped (its reason), a start was refused (why), or done. */
type Note = { kind: 'stopped' | 'refused'; text: string } | { kind: 'done' } | undefined;

/**
 * A collection's search index (on its members page): when chunks were embedded by another
 * model than the configured one, how many, that they are found by keyword search only, and for
 * owners a Re-index button; while a re-index runs, its progress. Says nothing when the status
 * cannot be read: the page around it still serves.
 */
export function SearchIndex({ collection }: { collection: Collection }) {
  const { api, signal, fail } = useApp();
  const [status, setStatus] = useState<EmbeddingStatus>();
  const [job, setJob] = useState<ReindexJob>();
  const [note, setNote] = useState<Note>();
  const [busy, setBusy] = useState(false);
  const m = messages();

  async function load() {
    try {
      const found = await api.knowledge.GetEmbeddingStatus(
        { collection_id: collection.id },
        { signal },
      );
      setStatus(found);
      setJob(found.job ?? undefined);
      if (found.job?.status === 'failed' && found.stale_chunks > 0) {
        setNote({ kind: 'stopped', text: m.reindex.failed(found.job.error?.message ?? '') });
      }
    } catch (err) {
      if (!isAbort(err)) setStatus(undefined);
    }
  }
  useEffect(() => void load(), [collection.id]);

  // While a job runs it is looked at every POLL_MS; when it ends, the status is read again.
  useEffect(() => {
    if (job?.status !== 'running') return;
    const timer = setTimeout(async () => {
      try {
        const now = await api.knowledge.GetReindex({ id: job.id }, { signal });
        setJob(now);
        if (now.status === 'done') setNote({ kind: 'done' });
        if (now.status === 'failed') {
          setNote({ kind: 'stopped', text: m.reindex.failed(now.error?.message ?? '') });
        }
        if (now.status !== 'running') await load();
      } catch (err) {
        if (!isAbort(err)) setJob({ ...job });
      }
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [job]);

  async function start() {
    setBusy(true);
    setNote(undefined);
    try {
      const started = await api.knowledge.PostReindex(
        { body: { collection_id: collection.id } },
        { signal },
      );
      setJob(started);
      if (started.status !== 'running') await load();
    } catch (err) {
      const failure = fail(err);
      setNote({ kind: 'refused', text: m.reindex.notStarted(failureText(failure, m)) });
    } finally {
      setBusy(false);
    }
  }

  if (!status) return null;
  const running = job?.status === 'running' ? job : undefined;
  const others = status.models.filter((model) => model.model !== status.configured);
  const owner = collection.role === 'owner';
  return (
    <section class="search-index" aria-labelledby="search-index-heading">
      <h2 id="search-index-heading">{m.reindex.heading}</h2>
      {status.stale_chunks > 0 ? (
        <p class="notice warning">
          {m.reindex.stale(
            status.stale_chunks,
            others.map((model) => model.model ?? m.reindex.unrecorded).join(', '),
          )}
        </p>
      ) : (
        !running && <p>{m.reindex.current(status.configured)}</p>
      )}
      {running && (
        <ProgressBar
          label={m.reindex.running}
          fraction={running.chunks > 0 ? running.chunks_done / running.chunks : undefined}
          text={m.reindex.progress(running.chunks_done, running.chunks)}
        />
      )}
      {running && <p>{m.reindex.progress(running.chunks_done, running.chunks)}</p>}
      {note?.kind === 'done' && <p class="notice info">{m.reindex.done}</p>}
      {(note?.kind === 'stopped' || note?.kind === 'refused') && (
        <p class="notice error" role="alert">
          {note.text}
        </p>
      )}
      {status.stale_chunks > 0 &&
        !running &&
        (owner ? (
          <button
            type="button"
            class="button"
            title={m.reindex.startTitle}
            disabled={busy}
            onClick={() => void start()}
          >
            {m.reindex.start}
          </button>
        ) : (
          <p class="hint">{m.reindex.askOwner}</p>
        ))}
    </section>
  );
}
