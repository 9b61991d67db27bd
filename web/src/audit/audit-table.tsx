import { DataTable, type Column } from '../components/data-table';
import { formatDate } from '../i18n/format';
import { messages } from '../i18n/messages';
import type { AuditRecord } from './audit-page';

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
    { header: m.audit.address, cell: (r) => <span class="address">{r.address ?? ''}</span> },
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
          {r.object_label ?? r.object_id ?? ''}
        </span>
      ),
    },
    {
      header: m.audit.result,
      cell: (r) => (
        <span class={`badge outcome-${r.outcome}`}>
          {m.audit.outcomes[r.outcome]}
          {typeof r.detail.reason === 'string' ? ` (${r.detail.reason})` : ''}
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
