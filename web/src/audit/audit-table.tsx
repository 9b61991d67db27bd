import { DataTable, type Column } from '../components/data-table';
import { formatDate } from '../i18n/format';
import { messages, type Messages } from '../i18n/messages';
import { sourcePlace } from '../source-place';
import type { AuditRecord } from './audit-page';

/** A question longer than this is cut in the table (the CSV export has it whole). */
const QUESTION_SHOWN = 100;
/** What the trail stores for an address it was not given (shared/audit/client-address.ts). */
const UNKNOWN_ADDRESS = 'unknown';
/** The label a re-index of every collection is stored with (workers/knowledge/src/store/audit.ts). */
const ALL_COLLECTIONS = 'all collections';

/** The client address, in the reader's language when the trail did not know it. */
function Address({ address, m }: { address: string | null; m: Messages['audit'] }) {
  if (address === UNKNOWN_ADDRESS) {
    return (
      <span class="address quiet" title={m.unknownAddressTitle}>
        {m.unknownAddress}
      </span>
    );
  }
  return <span class="address">{address ?? ''}</span>;
}

/**
 * What a record was done to, in words a reader can use: its name as it was then; a question
 * (chat.question keeps no name, only its words in the detail) by its words; the labels the
 * service stores in English (the limits, every collection) in the reader's language; a passage
 * by its file and where it stands in it (the detail's page and section); else what kind of
 * object it is and the start of its id, the whole id in the title.
 */
function objectName(r: AuditRecord, m: Messages['audit']): string {
  const type = r.object_type ?? '';
  if (type === 'limits') return m.objectTypes.limits ?? type;
  if (type === 'collection' && r.object_id === null && r.object_label === ALL_COLLECTIONS) {
    return m.allCollections;
  }
  const { page, section } = r.detail;
  if (type === 'chunk' && r.object_label && typeof page === 'number') {
    const place = sourcePlace({ page, section: typeof section === 'string' ? section : null });
    return `${r.object_label} · ${place}`;
  }
  if (r.object_label) return r.object_label;
  const question = r.detail.question;
  if ((type === 'message' || type === 'question') && typeof question === 'string' && question) {
    const shown = [...question];
    return m.questionAsked(
      shown.length > QUESTION_SHOWN ? `${shown.slice(0, QUESTION_SHOWN).join('')}…` : question,
    );
  }
  if (!r.object_id) return '';
  return m.objectId(m.objectTypes[type] ?? type, r.object_id);
}

/** The records of one page: when, who (and through which key), from where, what, on what, how it ended. */
export function AuditTable(props: { records: AuditRecord[]; total: number }) {
  const m = messages();
  const columns: Column<AuditRecord>[] = [
    {
      header: m.audit.at,
      rowHeader: true,
      cell: (r) => <time dateTime={r.at}>{formatDate(r.at)}</time>,
    },
    {
      header: m.audit.who,
      cell: (r) => r.actor_name ?? r.actor_id ?? <span class="quiet">{m.audit.nobody}</span>,
    },
    {
      header: m.audit.key,
      cell: (r) =>
        r.key_id ? (
          <span class="badge" title={r.key_id}>
            {m.audit.viaKey} {r.key_id.slice(0, 8)}
          </span>
        ) : null,
    },
    { header: m.audit.address, cell: (r) => <Address address={r.address} m={m.audit} /> },
    {
      header: m.audit.what,
      cell: (r) => (
        <span title={r.action}>
          {(m.audit.actions as Record<string, string>)[r.action] ?? r.action}
        </span>
      ),
    },
    {
      header: m.audit.on,
      cell: (r) => (
        <span class="object" title={r.object_id ?? undefined}>
          {objectName(r, m.audit)}
        </span>
      ),
    },
    {
      header: m.audit.result,
      cell: (r) => (
        <span class={`badge outcome-${r.outcome}`}>
          {typeof r.detail.reason === 'string'
            ? m.audit.withReason(
                m.audit.outcomes[r.outcome] ?? r.outcome,
                m.audit.reasons[r.detail.reason] ?? r.detail.reason,
              )
            : m.audit.outcomes[r.outcome]}
        </span>
      ),
    },
  ];
  return (
    <DataTable
      class="users audit"
      caption={m.audit.count(props.total)}
      columns={columns}
      rows={props.records}
      rowKey={(r) => String(r.id)}
      rowProps={(r) => ({ 'data-action': r.action })}
    />
  );
}
