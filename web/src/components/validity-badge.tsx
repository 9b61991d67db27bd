import type { KnowledgeFile } from '../api/services';
import { bookTitle } from '../book-title';
import type { NotInForce } from '../i18n/catalogue/metadata';
import { formatCalendarDate } from '../i18n/format';
import { messages } from '../i18n/messages';

type Validity = NonNullable<KnowledgeFile['validity']>;
type Relation = Validity['relations'][number];

/** How a relation names the other document: its number, else its title, else its file. */
export const relationName = (relation: Relation) =>
  relation.doc_number ??
  (relation.title ? bookTitle(relation.title) : null) ??
  relation.file_name ??
  '';

/**
 * Why a document no longer holds as it stands, and the document that did it: `replaced` is a
 * repeal by a document that takes its place (the contract's status says `repealed` for both).
 * Undefined for a document in force, or whose validity is not known.
 */
export function notInForce(
  validity: Validity | null | undefined,
): { kind: NotInForce; by?: Relation } | undefined {
  const status = validity?.status;
  if (status === 'expired') return { kind: 'expired' };
  if (status !== 'repealed' && status !== 'amended') return undefined;
  const kinds = status === 'repealed' ? ['repealed_by', 'replaced_by'] : ['amended_by'];
  const by = validity?.relations.find((relation) => kinds.includes(relation.relation));
  if (!by) return { kind: status };
  return { kind: by.relation === 'replaced_by' ? 'replaced' : status, by };
}

/** Which document repealed, replaced or amended this one, or when it expired; '' unknown. */
export function validityText(validity: Validity | null | undefined, expiresOn?: string | null) {
  const m = messages().metadata;
  const stands = notInForce(validity);
  if (!stands) return '';
  if (stands.kind === 'expired') return expiresOn ? m.expiredOn(formatCalendarDate(expiresOn)) : '';
  return stands.by ? m.by(stands.kind, relationName(stands.by)) : '';
}

export interface ValidityBadgeProps {
  validity: Validity | null | undefined;
  /** The document's own expiry date, to say since when an expired one no longer holds. */
  expiresOn?: string | null | undefined;
  /**
   * `full`: the badge and, beside it, the document that did it (a file row). `compact` (a
   * source, a cited passage): the badge alone, naming that document in its tooltip and to
   * screen readers.
   */
  look?: 'full' | 'compact';
}

/**
 * A badge (已废止 / 已被替代 / 已修改 / 已过期) for a document that no longer holds as it stands,
 * naming the document that repealed, replaced or amended it; nothing for one in force. The one
 * telling of validity wherever a document is named: file rows, sources, cited passages.
 */
export function ValidityBadge({ validity, expiresOn, look = 'full' }: ValidityBadgeProps) {
  const stands = notInForce(validity);
  if (!stands || !validity) return null;
  const badge = messages().metadata.badge(stands.kind);
  const text = validityText(validity, expiresOn);
  if (look === 'full') {
    return (
      <>
        <span class="badge file-validity" data-validity={validity.status}>
          {badge}
        </span>{' '}
        <span class="file-validity-by">{text}</span>
      </>
    );
  }
  return (
    <span class="badge file-validity" data-validity={validity.status} title={text || undefined}>
      {/* Read as the fuller text ("Repealed by …"), which already says the badge's word. */}
      <span aria-hidden={text ? 'true' : undefined}>{badge}</span>
      {text && <span class="visually-hidden">{text}</span>}
    </span>
  );
}
