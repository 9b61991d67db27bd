import type { ManagedUser } from './api/services';
import type { AppContext } from './context';
import { confirmDialog, passwordDialog } from './dialog';
import { h, replace, uid } from './dom';
import { formatDate, plural } from './format';

const PAGE_SIZE = 20;

/**
 * User management for super admins. Anyone may open it: the list comes from the API, which
 * answers 403 to everyone else, and the page then says "Access denied".
 */
export function createUsersPage(ctx: AppContext): HTMLElement {
  const titleId = uid('users-title');
  let page = 1;
  let total = 0;

  const heading = h('h1', { id: titleId, tabindex: -1 }, 'Users');
  const flash = h('p', { class: 'flash', role: 'status' });
  const problem = h('p', { class: 'notice error', role: 'alert', hidden: true });
  const body = h('div', { class: 'users-body' }, h('p', { class: 'loading' }, 'Loading users…'));
  const root = h(
    'section',
    { class: 'page users-page', 'aria-labelledby': titleId },
    heading,
    flash,
    problem,
    body,
  );

  function say(text: string): void {
    problem.hidden = true;
    flash.textContent = text;
  }

  function complain(err: unknown, what: string): boolean {
    const failure = ctx.fail(err);
    if (failure.status === 401) return true;
    if (failure.status === 403) {
      denied();
      return true;
    }
    flash.textContent = '';
    problem.hidden = false;
    const fields = failure.fields.map((f) => `${f.field}: ${f.message}`).join('; ');
    problem.textContent = `${what}: ${failure.detail}${fields ? ` (${fields})` : ''}`;
    return false;
  }

  function denied(): void {
    flash.textContent = '';
    problem.hidden = true;
    heading.textContent = 'Access denied';
    replace(
      body,
      h(
        'div',
        { class: 'denied' },
        h('p', null, 'Only super admins can see and manage users.'),
        h('p', null, h('a', { href: '#/' }, 'Back to the chat')),
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
      if (!ctx.signal.aborted) complain(err, 'The users could not be loaded');
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
    h('h2', null, 'Add a user'),
    h(
      'div',
      { class: 'form-row' },
      h(
        'div',
        { class: 'field' },
        h('label', { for: nameId }, 'Username'),
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
        h('label', { for: passwordId }, 'Password'),
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
        h('label', { for: adminId }, 'Super admin'),
      ),
      h('button', { type: 'submit', class: 'button primary' }, 'Add user'),
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
      say(`${user.username} was added as ${roleName(user.role)}.`);
      await load();
    } catch (err) {
      complain(err, `${username || 'The user'} could not be added`);
    }
  }

  // ---- list --------------------------------------------------------------------------------
  function render(users: ManagedUser[]): void {
    const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
    replace(
      body,
      createForm,
      h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { class: 'users' },
          h('caption', null, plural(total, 'user')),
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              h('th', { scope: 'col' }, 'User'),
              h('th', { scope: 'col' }, 'Role'),
              h('th', { scope: 'col' }, 'Status'),
              h('th', { scope: 'col' }, 'Created'),
              h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')),
            ),
          ),
          h('tbody', null, users.map(userRow)),
        ),
      ),
      pages > 1 &&
        h(
          'nav',
          { class: 'pager', 'aria-label': 'Pages of users' },
          h(
            'button',
            {
              type: 'button',
              class: 'button small',
              disabled: page <= 1,
              on: { click: () => go(page - 1) },
            },
            'Previous',
          ),
          h('span', null, `Page ${page} of ${pages}`),
          h(
            'button',
            {
              type: 'button',
              class: 'button small',
              disabled: page >= pages,
              on: { click: () => go(page + 1) },
            },
            'Next',
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
    const action = (label: string, aria: string, run: () => Promise<void>, danger = false) =>
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
        { scope: 'row', 'data-label': 'User' },
        user.username,
        self && h('span', { class: 'you' }, ' (you)'),
      ),
      h(
        'td',
        { 'data-label': 'Role' },
        h('span', { class: admin ? 'badge admin' : 'badge' }, admin ? 'Super admin' : 'User'),
      ),
      h(
        'td',
        { 'data-label': 'Status' },
        h(
          'span',
          { class: user.disabled ? 'badge off' : 'badge on' },
          user.disabled ? 'Disabled' : 'Active',
        ),
      ),
      h(
        'td',
        { 'data-label': 'Created' },
        h('time', { datetime: user.created_at }, formatDate(user.created_at)),
      ),
      h(
        'td',
        { class: 'actions' },
        h(
          'div',
          { class: 'row-actions' },
          action(
            admin ? 'Make user' : 'Make super admin',
            admin ? `Make ${user.username} a user` : `Make ${user.username} a super admin`,
            () =>
              change(`${user.username} is now ${admin ? 'a user' : 'a super admin'}.`, () =>
                ctx.api.auth.PutUserRole(
                  { body: { user_id: user.id, super_admin: !admin } },
                  { signal: ctx.signal },
                ),
              ),
          ),
          action(
            user.disabled ? 'Enable' : 'Disable',
            `${user.disabled ? 'Enable' : 'Disable'} ${user.username}`,
            () =>
              change(`${user.username} is now ${user.disabled ? 'enabled' : 'disabled'}.`, () =>
                ctx.api.auth.PutUserStatus(
                  { body: { user_id: user.id, disabled: !user.disabled } },
                  { signal: ctx.signal },
                ),
              ),
          ),
          action('Reset password', `Reset the password of ${user.username}`, async () => {
            const password = await passwordDialog({
              title: `New password for ${user.username}`,
              message: 'They will log in with it from now on.',
            });
            if (password === undefined) return;
            await change(`The password of ${user.username} was reset.`, () =>
              ctx.api.auth.PutUserPassword(
                { body: { user_id: user.id, password } },
                { signal: ctx.signal },
              ),
            );
          }),
          action(
            'Delete',
            `Delete ${user.username}`,
            async () => {
              const sure = await confirmDialog({
                title: `Delete ${user.username}?`,
                message: 'The account is removed and can no longer log in. Their files stay.',
                confirm: 'Delete user',
                danger: true,
              });
              if (!sure) return;
              await change(`${user.username} was deleted.`, () =>
                ctx.api.auth.DeleteUser({ user_id: user.id }, { signal: ctx.signal }),
              );
            },
            true,
          ),
        ),
      ),
    );
  }

  async function change(done: string, call: () => Promise<unknown>): Promise<void> {
    try {
      await call();
      say(done);
      await load();
    } catch (err) {
      complain(err, 'The change was not made');
    }
  }

  void load();
  return root;
}

const roleName = (role: string) => (role === 'SUPER_ADMIN' ? 'super admin' : 'user');
