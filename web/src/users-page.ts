import type { ManagedUser } from './api/services';
import type { AppContext } from './context';
import { confirmDialog } from './components/confirm-dialog';
import { passwordDialog } from './users/password-dialog';
import { h, replace, uid } from './dom';
import { t, type Localized } from './i18n/bind';
import { failureText } from './i18n/failure';
import { formatDate } from './i18n/format';
import type { Messages } from './i18n/messages';

const PAGE_SIZE = 20;

/**
 * User management for super admins. Anyone may open it: the list comes from the API, which
 * answers 403 to everyone else, and the page then says "Access denied".
 */
export function createUsersPage(ctx: AppContext): HTMLElement {
  const titleId = uid('users-title');
  let page = 1;
  let total = 0;

  const heading = h(
    'h1',
    { id: titleId, tabindex: -1 },
    t((m) => m.users.title),
  );
  const flash = h('p', { class: 'flash', role: 'status' });
  const problem = h('p', { class: 'notice error', role: 'alert', hidden: true });
  const body = h(
    'div',
    { class: 'users-body' },
    h(
      'p',
      { class: 'loading' },
      t((m) => m.users.loading),
    ),
  );
  const root = h(
    'section',
    { class: 'page users-page', 'aria-labelledby': titleId },
    heading,
    flash,
    problem,
    body,
  );

  function say(text: Localized): void {
    problem.hidden = true;
    replace(flash, text);
  }

  /** Shows why a call failed; `what` words it for the screen ("… could not be added: …"). */
  function complain(err: unknown, what: (reason: string, m: Messages) => string): boolean {
    const failure = ctx.fail(err);
    if (failure.status === 401) return true;
    if (failure.status === 403) {
      denied();
      return true;
    }
    replace(flash);
    problem.hidden = false;
    replace(
      problem,
      t((m) => what(failureText(failure, m), m)),
    );
    return false;
  }

  function denied(): void {
    replace(flash);
    problem.hidden = true;
    replace(
      heading,
      t((m) => m.users.accessDenied),
    );
    replace(
      body,
      h(
        'div',
        { class: 'denied' },
        h(
          'p',
          null,
          t((m) => m.users.onlySuperAdmins),
        ),
        h(
          'p',
          null,
          h(
            'a',
            { href: '#/' },
            t((m) => m.users.backToChat),
          ),
        ),
      ),
    );
  }

  async function load(): Promise<void> {
    try {
      const answer = await ctx.api.auth.ListUsers(
        { page, size: PAGE_SIZE },
        { signal: ctx.signal },
      );
      total = answer.total;
      if (answer.items.length === 0 && page > 1) {
        page -= 1;
        return load();
      }
      render(answer.items);
    } catch (err) {
      if (!ctx.signal.aborted) complain(err, (reason, m) => m.users.loadFailed(reason));
    }
  }

  // ---- create ----------------------------------------------------------------------------
  const nameId = uid('new-username');
  const passwordId = uid('new-password');
  const adminId = uid('new-admin');
  const createForm = h(
    'form',
    {
      class: 'card create-user',
      on: {
        submit: (event) => {
          event.preventDefault();
          void create();
        },
      },
    },
    h(
      'h2',
      null,
      t((m) => m.users.addUser),
    ),
    h(
      'div',
      { class: 'form-row' },
      h(
        'div',
        { class: 'field' },
        h(
          'label',
          { for: nameId },
          t((m) => m.users.username),
        ),
        h('input', {
          id: nameId,
          name: 'username',
          autocomplete: 'off',
          required: true,
          minlength: 3,
          maxlength: 50,
        }),
      ),
      h(
        'div',
        { class: 'field' },
        h(
          'label',
          { for: passwordId },
          t((m) => m.users.password),
        ),
        h('input', {
          id: passwordId,
          name: 'password',
          type: 'password',
          autocomplete: 'new-password',
          required: true,
          minlength: 8,
          maxlength: 128,
        }),
      ),
      h(
        'div',
        { class: 'field checkbox' },
        h('input', { id: adminId, name: 'super_admin', type: 'checkbox' }),
        h(
          'label',
          { for: adminId },
          t((m) => m.users.superAdmin),
        ),
      ),
      h(
        'button',
        { type: 'submit', class: 'button primary' },
        t((m) => m.users.add),
      ),
    ),
  );

  async function create(): Promise<void> {
    const data = new FormData(createForm);
    const username = String(data.get('username') ?? '').trim();
    try {
      const user = await ctx.api.auth.CreateUser(
        {
          body: {
            username,
            password: String(data.get('password') ?? ''),
            super_admin: data.get('super_admin') === 'on',
          },
        },
        { signal: ctx.signal },
      );
      createForm.reset();
      const admin = user.role === 'SUPER_ADMIN';
      say(t((m) => m.users.added(user.username, admin)));
      await load();
    } catch (err) {
      complain(err, (reason, m) => m.users.notAdded(username, reason));
    }
  }

  // ---- list --------------------------------------------------------------------------------
  function render(users: ManagedUser[]): void {
    const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
    const shownTotal = total;
    const shownPage = page;
    replace(
      body,
      createForm,
      h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { class: 'users' },
          h(
            'caption',
            null,
            t((m) => m.users.count(shownTotal)),
          ),
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              h(
                'th',
                { scope: 'col' },
                t((m) => m.users.user),
              ),
              h(
                'th',
                { scope: 'col' },
                t((m) => m.users.role),
              ),
              h(
                'th',
                { scope: 'col' },
                t((m) => m.users.status),
              ),
              h(
                'th',
                { scope: 'col' },
                t((m) => m.users.created),
              ),
              h(
                'th',
                { scope: 'col' },
                h(
                  'span',
                  { class: 'visually-hidden' },
                  t((m) => m.users.actions),
                ),
              ),
            ),
          ),
          h('tbody', null, users.map(userRow)),
        ),
      ),
      pages > 1 &&
        h(
          'nav',
          { class: 'pager', 'aria-label': t((m) => m.users.pages) },
          h(
            'button',
            {
              type: 'button',
              class: 'button small',
              disabled: page <= 1,
              on: { click: () => go(page - 1) },
            },
            t((m) => m.users.previous),
          ),
          h(
            'span',
            null,
            t((m) => m.users.pageOf(shownPage, pages)),
          ),
          h(
            'button',
            {
              type: 'button',
              class: 'button small',
              disabled: page >= pages,
              on: { click: () => go(page + 1) },
            },
            t((m) => m.users.next),
          ),
        ),
    );
  }

  function go(to: number): void {
    page = to;
    void load();
  }

  function userRow(user: ManagedUser): HTMLTableRowElement {
    const self = user.id === ctx.me.id;
    const admin = user.role === 'SUPER_ADMIN';
    const name = user.username;
    const action = (label: Localized, aria: Localized, run: () => Promise<void>, danger = false) =>
      h(
        'button',
        {
          type: 'button',
          class: danger ? 'button small danger-outline' : 'button small',
          'aria-label': aria,
          on: {
            click: async (event) => {
              const button = event.currentTarget as HTMLButtonElement;
              button.disabled = true;
              await run();
              button.disabled = false;
            },
          },
        },
        label,
      );
    return h(
      'tr',
      { 'data-username': user.username, class: user.disabled ? 'disabled' : undefined },
      h(
        'th',
        { scope: 'row', 'data-label': t((m) => m.users.user) },
        user.username,
        self &&
          h(
            'span',
            { class: 'you' },
            t((m) => m.users.you),
          ),
      ),
      h(
        'td',
        { 'data-label': t((m) => m.users.role) },
        h(
          'span',
          { class: admin ? 'badge admin' : 'badge' },
          t((m) => (admin ? m.users.roleSuperAdmin : m.users.roleUser)),
        ),
      ),
      h(
        'td',
        { 'data-label': t((m) => m.users.status) },
        h(
          'span',
          { class: user.disabled ? 'badge off' : 'badge on' },
          t((m) => (user.disabled ? m.users.disabled : m.users.active)),
        ),
      ),
      h(
        'td',
        { 'data-label': t((m) => m.users.created) },
        h(
          'time',
          { datetime: user.created_at },
          t(() => formatDate(user.created_at)),
        ),
      ),
      h(
        'td',
        { class: 'actions' },
        h(
          'div',
          { class: 'row-actions' },
          action(
            t((m) => (admin ? m.users.makeUser : m.users.makeSuperAdmin)),
            t((m) => (admin ? m.users.makeUserNamed(name) : m.users.makeSuperAdminNamed(name))),
            () =>
              change(
                t((m) => m.users.nowRole(name, !admin)),
                () =>
                  ctx.api.auth.PutUserRole(
                    { body: { user_id: user.id, super_admin: !admin } },
                    { signal: ctx.signal },
                  ),
              ),
          ),
          action(
            t((m) => (user.disabled ? m.users.enable : m.users.disable)),
            t((m) => (user.disabled ? m.users.enableNamed(name) : m.users.disableNamed(name))),
            () =>
              change(
                t((m) => m.users.nowStatus(name, !user.disabled)),
                () =>
                  ctx.api.auth.PutUserStatus(
                    { body: { user_id: user.id, disabled: !user.disabled } },
                    { signal: ctx.signal },
                  ),
              ),
          ),
          action(
            t((m) => m.users.resetPassword),
            t((m) => m.users.resetPasswordNamed(name)),
            async () => {
              const password = await passwordDialog(name);
              if (password === undefined) return;
              await change(
                t((m) => m.users.passwordReset(name)),
                () =>
                  ctx.api.auth.PutUserPassword(
                    { body: { user_id: user.id, password } },
                    { signal: ctx.signal },
                  ),
              );
            },
          ),
          action(
            t((m) => m.users.delete),
            t((m) => m.users.deleteNamed(name)),
            async () => {
              const sure = await confirmDialog((m) => ({
                title: m.users.deleteTitle(name),
                message: m.users.deleteMessage,
                confirm: m.users.deleteConfirm,
                danger: true,
              }));
              if (!sure) return;
              await change(
                t((m) => m.users.deleted(name)),
                () => ctx.api.auth.DeleteUser({ user_id: user.id }, { signal: ctx.signal }),
              );
            },
            true,
          ),
        ),
      ),
    );
  }

  async function change(done: Localized, call: () => Promise<unknown>): Promise<void> {
    try {
      await call();
      say(done);
      await load();
    } catch (err) {
      complain(err, (reason, m) => m.users.notChanged(reason));
    }
  }

  void load();
  return root;
}
