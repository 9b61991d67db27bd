import { useState } from 'preact/hooks';
import type { ManagedUser } from '../api/services';
import { Denied, OutcomeLines, Page, useOutcome } from '../components/page';
import { usePagedList } from '../components/paged-list';
import { Pager } from '../components/pager';
import { useApp } from '../context';
import { t, type Localized } from '../i18n/bind';
import { failureText } from '../i18n/failure';
import { messages, type Messages } from '../i18n/messages';
import { CreateUserForm, type NewUser } from './create-user-form';
import { UsersTable } from './users-table';

const PAGE_SIZE = 20;

/**
 * User management for super admins (`#/users`). Anyone may open it: the list comes from the
 * API, which answers 403 to everyone else, and the page then says "Access denied".
 */
export function UsersPage() {
  const ctx = useApp();
  const outcome = useOutcome();
  const [denied, setDenied] = useState(false);
  const list = usePagedList<ManagedUser>(
    PAGE_SIZE,
    (page, size) => ctx.api.auth.ListUsers({ page, size }, { signal: ctx.signal }),
    (err) => {
      if (!ctx.signal.aborted) complain(err, (reason, m) => m.users.loadFailed(reason));
    },
  );
  const m = messages();

  /** Shows why a call failed; `what` words it ("… could not be added: …"). */
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

  async function change(done: Localized, call: () => Promise<unknown>): Promise<void> {
    try {
      await call();
      outcome.done(done);
      await list.load();
    } catch (err) {
      complain(err, (reason, m) => m.users.notChanged(reason));
    }
  }

  async function add(user: NewUser): Promise<boolean> {
    try {
      const added = await ctx.api.auth.CreateUser({ body: user }, { signal: ctx.signal });
      const admin = added.role === 'SUPER_ADMIN';
      outcome.done(t((m) => m.users.added(added.username, admin)));
      await list.load();
      return true;
    } catch (err) {
      complain(err, (reason, m) => m.users.notAdded(user.username, reason));
      return false;
    }
  }

  const shown = list.shown;
  return (
    <Page class="users-page" heading={denied ? m.users.accessDenied : m.users.title}>
      <OutcomeLines outcome={outcome} />
      <div class="users-body">
        {denied ? (
          <Denied message={m.users.onlySuperAdmins} back={m.users.backToChat} />
        ) : !shown ? (
          <p class="loading">{m.users.loading}</p>
        ) : (
          <>
            <CreateUserForm add={add} />
            <UsersTable users={shown.items} total={shown.total} change={change} />
            <Pager label={m.users.pages} page={shown.page} pages={shown.pages} onPage={list.go} />
          </>
        )}
      </div>
    </Page>
  );
}
