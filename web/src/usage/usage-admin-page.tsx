import { useEffect, useState } from 'preact/hooks';
import { DataTable } from '../components/data-table';
import { Notice } from '../components/notice';
import { Denied, Page } from '../components/page';
import { useApp } from '../context';
import { failureText } from '../i18n/failure';
import { messages } from '../i18n/messages';
import { amountColumns, DayChart, usedDays, type UsageOverview } from './usage-parts';

/**
 * Everyone's usage (`#/admin/usage`, super admins): the last 30 days as a chart with the same
 * figures in a table, and the period per user and per collection.
 */
export function UsageAdminPage() {
  const ctx = useApp();
  const { api, me, signal } = ctx;
  const [overview, setOverview] = useState<UsageOverview>();
  const [problem, setProblem] = useState<string>();
  const admin = me.role === 'SUPER_ADMIN';
  const m = messages().usage;

  useEffect(() => {
    if (!admin) return;
    api.chat.GetUsageAll({}, { signal }).then(setOverview, (err: unknown) => {
      if (signal.aborted) return;
      const failure = ctx.fail(err);
      if (failure.status !== 401) setProblem(m.loadFailed(failureText(failure, messages())));
    });
  }, []);

  if (!admin) {
    return (
      <Page class="usage-admin-page" heading={m.adminTitle}>
        <Denied message={m.deniedAdmin} back={m.back} />
      </Page>
    );
  }
  const days = overview ? usedDays(overview.days) : [];
  return (
    <Page class="usage-admin-page" heading={m.adminTitle}>
      <p class="hint">{m.intro}</p>
      <Notice tone="error" text={problem} />
      {!overview && !problem && <p role="status">{m.loading}</p>}
      {overview && (
        <>
          <section aria-labelledby="usage-all-days">
            <h2 id="usage-all-days">{m.period(overview.from, overview.to)}</h2>
            <div class="usage-charts">
              <DayChart
                days={overview.days}
                pick={(d) => d.total_tokens}
                title={m.chartTitle}
                m={m}
              />
              <DayChart
                days={overview.days}
                pick={(d) => d.questions}
                title={m.chartQuestionsTitle}
                m={m}
              />
            </div>
            {days.length === 0 ? (
              <p>{m.nothingYet}</p>
            ) : (
              <DataTable
                class="usage-days"
                caption={m.perDay(days.length)}
                columns={[
                  { header: m.day, rowHeader: true, cell: (row) => row.day },
                  ...amountColumns<(typeof days)[number]>(m),
                ]}
                rows={days}
                rowKey={(row) => row.day}
              />
            )}
          </section>
          {overview.by_user.length > 0 && (
            <DataTable
              class="usage-users"
              caption={m.perUser(overview.by_user.length)}
              columns={[
                {
                  header: m.user,
                  rowHeader: true,
                  cell: (row) => row.username ?? m.deletedUser,
                },
                ...amountColumns<UsageOverview['by_user'][number]>(m),
              ]}
              rows={overview.by_user}
              rowKey={(row) => row.user_id}
            />
          )}
          {overview.by_collection.length > 0 && (
            <DataTable
              class="usage-collections"
              caption={m.perCollection(overview.by_collection.length)}
              columns={[
                {
                  header: m.collection,
                  rowHeader: true,
                  cell: (row) =>
                    row.collection_id === null
                      ? m.noCollection
                      : (row.collection_name ?? m.unreadableCollection),
                },
                ...amountColumns<UsageOverview['by_collection'][number]>(m),
              ]}
              rows={overview.by_collection}
              rowKey={(row) => row.collection_id ?? 'none'}
            />
          )}
        </>
      )}
    </Page>
  );
}
