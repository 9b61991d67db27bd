import type { KnowledgeFile } from '../api/services';
import { formatCalendarDate } from '../i18n/format';
import { messages } from '../i18n/messages';

type Relation = NonNullable<KnowledgeFile['validity']>['relations'][number];

/** How a relation names the other document: its number, else its title, else its file. */
export const relationName = (relation: Relation) =>
  relation.doc_number ??
  (relation.title ? `《${relation.title}》` : null) ??
  relation.file_name ??
  '';

/**
 * What a file's document says of itself, in one line (文号 · issuers · date of issue), and a
 * badge when it no longer holds as it stands (repealed, amended, expired), naming the document
 * that repealed or amended it. Nothing for a document that says nothing of itself.
 */
export function DocumentDetails({ file }: { file: KnowledgeFile }) {
  const m = messages().metadata;
  const meta = file.metadata;
  const status = file.validity?.status;
  const parts = meta
    ? [
        meta.doc_number,
        meta.issuers.length > 0 ? meta.issuers.join('、') : null,
        meta.issued_on ? formatCalendarDate(meta.issued_on) : null,
      ].filter((part): part is string => Boolean(part))
    : [];
  const notInForce = status === 'repealed' || status === 'amended' || status === 'expired';
  if (parts.length === 0 && !notInForce) return null;
  return (
    <p class="file-document">
      {parts.length > 0 && <span class="file-document-meta">{parts.join(' · ')}</span>}
      {notInForce && (
        <>
          {' '}
          <span class="badge file-validity" data-validity={status}>
            {m.badge(status)}
          </span>{' '}
          <span class="file-validity-by">{validityText(file, status)}</span>
        </>
      )}
    </p>
  );
}

/** Which document repealed or amended this one, or when it expired. */
function validityText(file: KnowledgeFile, status: 'repealed' | 'amended' | 'expired') {
  const m = messages().metadata;
  if (status === 'expired') {
    const date = file.metadata?.expires_on;
    return date ? m.expiredOn(formatCalendarDate(date)) : '';
  }
  const kinds = status === 'repealed' ? ['repealed_by', 'replaced_by'] : ['amended_by'];
  const by = file.validity?.relations.find((relation) => kinds.includes(relation.relation));
  return by ? m.by(status, relationName(by)) : '';
}
