import { useEffect, useState } from 'preact/hooks';
import { DataTable } from '../components/data-table';
import { Notice } from '../components/notice';
import { Denied, Page } from '../components/page';
import { useApp } from '../context';
import { failureText } from '../i18n/failure';
import { messages } from '../i18n/messages';
import { amountColumns, CollectionsTable, DaysSection, type UsageOverview } from './usage-parts';

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
  return (
    <Page class="usage-admin-page" heading={m.adminTitle}>
      <p class="hint">{m.intro}</p>
      <Notice tone="error" text={problem} />
      {!overview && !problem && <p role="status">{m.loading}</p>}
      {overview && (
        <>
          <DaysSection from={overview.from} to={overview.to} days={overview.days} m={m} />
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
          <CollectionsTable rows={overview.by_collection} m={m} />
        </>
      )}
    </Page>
  );
}
