import { useEffect, useState } from 'preact/hooks';
import { DataTable } from '../components/data-table';
import { Notice } from '../components/notice';
import { Page } from '../components/page';
import { useApp } from '../context';
import { failureText } from '../i18n/failure';
import { formatDate } from '../i18n/format';
import { messages } from '../i18n/messages';
import { amountColumns, CollectionsTable, DaysSection, type UsageReport } from './usage-parts';

/**
 * My usage (`#/usage`): today against the daily limits and when they reset, the last 30 days
 * as a small chart with the same figures in a table, and the period per API key and per
 * collection.
 */
export function UsagePage() {
  const ctx = useApp();
  const { api, signal } = ctx;
  const [report, setReport] = useState<UsageReport>();
  const [problem, setProblem] = useState<string>();
  const all = messages();
  const m = all.usage;

  useEffect(() => {
    api.chat.GetUsage({}, { signal }).then(setReport, (err: unknown) => {
      if (signal.aborted) return;
      const failure = ctx.fail(err);
      if (failure.status !== 401) setProblem(m.loadFailed(failureText(failure, messages())));
    });
  }, []);

  return (
    <Page class="usage-page" heading={m.title}>
      <p class="hint">{m.intro}</p>
      <Notice tone="error" text={problem} />
      {!report && !problem && <p role="status">{m.loading}</p>}
      {report && <Report report={report} m={m} />}
    </Page>
  );
}

/** What the user has stored against the storage limit per user (uploads past it are refused). */
function StorageSection({
  storage,
  m,
}: {
  storage: UsageReport['storage'];
  m: ReturnType<typeof messages>['usage'];
}) {
  // Full when not even one more byte fits: the next upload would be refused.
  const full = storage.limit !== null && storage.bytes >= storage.limit;
  return (
    <section class="usage-storage" aria-labelledby="usage-storage-heading">
      <h2 id="usage-storage-heading">{m.storageTitle}</h2>
      <p>
        <strong>{m.stored(storage.bytes, storage.limit)}</strong>
      </p>
      <p class="hint">{m.storedHint}</p>
      <Notice tone="warning" text={full ? m.storageFull : undefined} />
    </section>
  );
}

function Report({ report, m }: { report: UsageReport; m: ReturnType<typeof messages>['usage'] }) {
  const { today } = report;
  const over =
    (today.limits.user_daily_questions !== null &&
      today.questions >= today.limits.user_daily_questions) ||
    (today.limits.user_daily_tokens !== null &&
      today.total_tokens >= today.limits.user_daily_tokens);
  return (
    <>
      <section class="usage-today" aria-labelledby="usage-today-heading">
        <h2 id="usage-today-heading">{m.today}</h2>
        <dl class="usage-figures">
          <div>
            <dt>{m.questionsToday}</dt>
            <dd>{m.ofLimit(today.questions, today.limits.user_daily_questions)}</dd>
          </div>
          <div>
            <dt>{m.tokensToday}</dt>
            <dd>{m.ofLimit(today.total_tokens, today.limits.user_daily_tokens)}</dd>
          </div>
        </dl>
        <p class="hint">{m.resetsAt(formatDate(today.resets_at))}</p>
        <Notice tone="warning" text={over ? m.overLimit : undefined} />
      </section>
      <StorageSection storage={report.storage} m={m} />
      <DaysSection from={report.from} to={report.to} days={report.days} m={m} />
      {report.by_key.length > 0 && (
        <DataTable
          class="usage-keys"
          caption={m.perKey(report.by_key.length)}
          columns={[
            {
              header: m.key,
              rowHeader: true,
              cell: (row) => (row.key_id === null ? m.signedIn : (row.key_name ?? m.deletedKey)),
            },
            ...amountColumns<UsageReport['by_key'][number]>(m),
          ]}
          rows={report.by_key}
          rowKey={(row) => row.key_id ?? 'none'}
        />
      )}
      <CollectionsTable rows={report.by_collection} m={m} />
    </>
  );
}
