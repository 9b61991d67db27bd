import { useEffect, useState } from 'preact/hooks';
import type { FileNow, KnowledgeFile } from '../api/services';
import { bookTitle } from '../book-title';
import { notInForce, relationName } from '../components/validity-badge';
import { useApp } from '../context';
import { formatCalendarDate } from '../i18n/format';
import { messages } from '../i18n/messages';
import { documentLink } from '../main/route';

/** The opened file as the file list tells it and, when it is not the current version, so. */
export interface ViewedFile {
  file?: KnowledgeFile;
  now?: FileNow;
}

/**
 * The opened file as the file list tells it (what its document says of itself, whether it
 * still holds): asked once per file opened, not per page. The list has current versions only:
 * a file it does not list (an old version, opened from an old answer) is asked after as it
 * stands now, to say so. Empty until known, and when it cannot be: the viewer shows the
 * document without it rather than fail.
 */
export function useViewedFile(fileId: string): ViewedFile {
  const ctx = useApp();
  const [viewed, setViewed] = useState<ViewedFile>({});
  useEffect(() => {
    const abort = new AbortController();
    const { signal } = abort;
    setViewed({});
    (async () => {
      const [found] = await ctx.api.knowledge.GetList({ file_id: fileId }, { signal });
      if (found?.id === fileId) return { file: found };
      const [now] = await ctx.api.knowledge.PostFileStates(
        { body: { files: [{ id: fileId }] } },
        { signal },
      );
      return now?.state === 'superseded' ? { now } : {};
    })()
      .then((known) => {
        if (!signal.aborted) setViewed(known);
      })
      // Only a nicety over the page: the page's own request tells of a missing file or a
      // lost session.
      .catch(() => undefined);
    return () => abort.abort();
  }, [fileId]);
  return viewed;
}

/**
 * Under the viewer's title: the document's number (文号) and title, when it says them, and for
 * a document that no longer holds a standing note (not an alert: it is read with the page, not
 * announced on every open) saying so and naming the document that repealed, replaced or
 * amended it. Whoever checks an answer here must not take a dead rule for a living one.
 */
export function DocumentHead({ file, now }: ViewedFile) {
  const m = messages().viewer;
  const meta = file?.metadata;
  const named = [meta?.doc_number, meta?.title ? bookTitle(meta.title) : null].filter(
    (part): part is string => Boolean(part),
  );
  // An old version: whether the document holds is told of its current version.
  const validity = file?.validity ?? now?.validity;
  const stands = notInForce(validity);
  if (named.length === 0 && !stands && !now) return null;
  let warning: string | undefined;
  if (stands?.kind === 'expired') {
    warning = m.expired(meta?.expires_on ? formatCalendarDate(meta.expires_on) : null);
  } else if (stands) {
    warning = m.notInForce(stands.kind, stands.by ? relationName(stands.by) : null);
  }
  return (
    <div class="viewer-document">
      {named.length > 0 && <p class="viewer-document-name">{named.join(' ')}</p>}
      {now && <OldVersionNote now={now} />}
      {warning && (
        <p class="viewer-validity" role="note" data-validity={validity?.status}>
          {warning}
        </p>
      )}
    </div>
  );
}

/**
 * An old version opened (from an old answer, or by its address): a standing note saying it is
 * not the current version, naming the current one with a link to open it.
 */
function OldVersionNote({ now }: { now: FileNow }) {
  const m = messages().sourcesNow;
  const current = now.current;
  return (
    <p class="viewer-old-version" role="note">
      {current ? m.viewerOld(current.name, current.version) : m.viewerOldNoCurrent}
      {current && (
        <>
          {' '}
          <a href={documentLink(current.id)}>{m.viewerOpenCurrent}</a>
        </>
      )}
    </p>
  );
}
