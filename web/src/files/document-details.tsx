import type { KnowledgeFile } from '../api/services';
import { notInForce, ValidityBadge } from '../components/validity-badge';
import { formatCalendarDate } from '../i18n/format';

export { relationName } from '../components/validity-badge';

/**
 * What a file's document says of itself, in one line (文号 · issuers · date of issue), and a
 * badge when it no longer holds as it stands (repealed, replaced, amended, expired), naming the
 * document that did it. Nothing for a document that says nothing of itself.
 */
export function DocumentDetails({ file }: { file: KnowledgeFile }) {
  const meta = file.metadata;
  const parts = meta
    ? [
        meta.doc_number,
        meta.issuers.length > 0 ? meta.issuers.join('、') : null,
        meta.issued_on ? formatCalendarDate(meta.issued_on) : null,
      ].filter((part): part is string => Boolean(part))
    : [];
  const stale = notInForce(file.validity) !== undefined;
  if (parts.length === 0 && !stale) return null;
  return (
    <p class="file-document">
      {parts.length > 0 && <span class="file-document-meta">{parts.join(' · ')}</span>}
      {stale && (
        <>
          {' '}
          <ValidityBadge validity={file.validity} expiresOn={meta?.expires_on} />
        </>
      )}
    </p>
  );
}
