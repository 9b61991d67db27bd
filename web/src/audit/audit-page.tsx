import { useRef, useState } from 'preact/hooks';
import { Denied, OutcomeLines, Page, useOutcome } from '../components/page';
import { usePagedList } from '../components/paged-list';
import { Pager } from '../components/pager';
import { saveFile } from '../components/save-file';
import { useApp } from '../context';
import { t } from '../i18n/bind';
import { failureText } from '../i18n/failure';
import { messages, type Messages } from '../i18n/messages';
import type { Api } from '../api/services';
import { AuditFilters, auditQuery, NO_FILTERS, type AuditFilterValues } from './audit-filters';
import { AuditTable } from './audit-table';

export type AuditRecord = Awaited<ReturnType<Api['auth']['GetAudit']>>['items'][number];

const PAGE_SIZE = 50;

/**
 * The audit trail for super admins (`#/admin/audit`): filters, a page of records newest first,
 * and the CSV export of everything the filters select. Anyone may open it: the API answers 403
 * to everyone else, and the page then says "Access denied".
 */
export function AuditPage() {
  const ctx = useApp();
  const outcome = useOutcome();
  const [denied, setDenied] = useState(false);
  const [exporting, setExporting] = useState(false);
  const filters = useRef<AuditFilterValues>(NO_FILTERS);
  const list = usePagedList<AuditRecord>(
    PAGE_SIZE,
    (page, size) =>
      ctx.api.auth.GetAudit({ ...auditQuery(filters.current), page, size }, { signal: ctx.signal }),
    (err) => {
      if (!ctx.signal.aborted) complain(err, (reason, m) => m.audit.loadFailed(reason));
    },
  );
  const m = messages();

  function complain(err: unknown, what: (reason: string, m: Messages) => string): void {
    const failure = ctx.fail(err);
    if (failure.status === 401) return;
    if (failure.status === 403) {
      outcome.clear();
      setDenied(true);
      return;
    }
    outcome.failed(t((m) => what(failureText(failure, m), m)));
  }

  async function exportCsv(): Promise<void> {
    setExporting(true);
    try {
      const file = await ctx.api.auth.GetAuditExport(auditQuery(filters.current), {
        signal: ctx.signal,
      });
      const csv = new Response(file.body, {
        headers: { 'Content-Type': 'text/csv;charset=utf-8' },
      });
      saveFile(await csv.blob(), file.filename ?? 'audit.csv');
      outcome.done(t((m) => m.audit.exported));
    } catch (err) {
      complain(err, (reason, m) => m.audit.exportFailed(reason));
    } finally {
      setExporting(false);
    }
  }

  const shown = list.shown;
  return (
    <Page class="audit-page" heading={denied ? m.audit.accessDenied : m.audit.title}>
      <OutcomeLines outcome={outcome} />
      <div class="audit-body">
        {denied ? (
          <Denied message={m.audit.onlySuperAdmins} back={m.audit.backToChat} />
        ) : (
          <>
            <AuditFilters
              apply={(values) => {
                filters.current = values;
                list.go(1);
              }}
            />
            <div class="audit-toolbar">
              <button
                type="button"
                class="button"
                onClick={() => void exportCsv()}
                disabled={exporting}
              >
                {exporting ? m.audit.exporting : m.audit.exportCsv}
              </button>
            </div>
            {!shown ? (
              <p class="loading">{m.audit.loading}</p>
            ) : shown.total === 0 ? (
              <p class="empty">{m.audit.none}</p>
            ) : (
              <>
                <AuditTable records={shown.items} total={shown.total} />
                <Pager
                  label={m.audit.pages}
                  page={shown.page}
                  pages={shown.pages}
                  onPage={list.go}
                />
              </>
            )}
          </>
        )}
      </div>
    </Page>
  );
}
