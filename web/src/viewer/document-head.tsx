import { useEffect, useState } from 'preact/hooks';
import type { KnowledgeFile } from '../api/services';
import { bookTitle } from '../book-title';
import { notInForce, relationName } from '../components/validity-badge';
import { useApp } from '../context';
import { formatCalendarDate } from '../i18n/format';
import { messages } from '../i18n/messages';

/**
 * The opened file as the file list tells it (what its document says of itself, whether it
 * still holds): asked once per file opened, not per page. Undefined until it is known, and
 * when it cannot be: the viewer shows the document without it rather than fail.
 */
export function useViewedFile(fileId: string): KnowledgeFile | undefined {
  const ctx = useApp();
  const [file, setFile] = useState<KnowledgeFile | undefined>();
  useEffect(() => {
    const abort = new AbortController();
    ctx.api.knowledge
      .GetList({ file_id: fileId }, { signal: abort.signal })
      .then(([found]) => {
        if (!abort.signal.aborted && found?.id === fileId) setFile(found);
      })
      // Only a nicety over the page: the page's own request tells of a missing file or a
      // lost session.
      .catch(() => undefined);
    return () => abort.abort();
  }, [fileId]);
  return file;
}

/**
 * Under the viewer's title: the document's number (文号) and title, when it says them, and for
 * a document that no longer holds a standing note (not an alert: it is read with the page, not
 * announced on every open) saying so and naming the document that repealed, replaced or
 * amended it. Whoever checks an answer here must not take a dead rule for a living one.
 */
export function DocumentHead({ file }: { file: KnowledgeFile | undefined }) {
  const m = messages().viewer;
  const meta = file?.metadata;
  const named = [meta?.doc_number, meta?.title ? bookTitle(meta.title) : null].filter(
    (part): part is string => Boolean(part),
  );
  const stands = notInForce(file?.validity);
  if (named.length === 0 && !stands) return null;
  let warning: string | undefined;
  if (stands?.kind === 'expired') {
    warning = m.expired(meta?.expires_on ? formatCalendarDate(meta.expires_on) : null);
  } else if (stands) {
    warning = m.notInForce(stands.kind, stands.by ? relationName(stands.by) : null);
  }
  return (
    <div class="viewer-document">
      {named.length > 0 && <p class="viewer-document-name">{named.join(' ')}</p>}
      {warning && (
        <p class="viewer-validity" role="note" data-validity={file?.validity?.status}>
          {warning}
        </p>
      )}
    </div>
  );
}
