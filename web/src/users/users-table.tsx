import type { ManagedUser } from '../api/services';
import { ActionButton } from '../components/action-button';
import { confirmDialog } from '../components/confirm-dialog';
import { DataTable, type Column } from '../components/data-table';
import { useApp } from '../context';
import { t, type Localized } from '../i18n/bind';
import { formatDate } from '../i18n/format';
import { messages } from '../i18n/messages';
import { passwordDialog } from './password-dialog';

export interface UsersTableProps {
  users: ManagedUser[];
  total: number;
  /** Makes a change and says so (`done`), or why not, and shows the list as it is now. */
  change(done: Localized, call: () => Promise<unknown>): Promise<void>;
}

/** Every user with their role and status, and what a super admin can do to each. */
export function UsersTable({ users, total, change }: UsersTableProps) {
  const { api, me, signal } = useApp();
  const m = messages();

  /** Asks before a super admin demotes or disables themselves (it signs them out). */
  const confirmSelf = (what: 'demote' | 'disable') =>
    confirmDialog((m) =>
      what === 'demote'
        ? {
            title: m.users.selfDemoteTitle,
            message: m.users.selfDemoteMessage,
            confirm: m.users.selfDemoteConfirm,
            danger: true,
          }
        : {
            title: m.users.selfDisableTitle,
            message: m.users.selfDisableMessage,
            confirm: m.users.selfDisableConfirm,
            danger: true,
          },
    );

  function actions(user: ManagedUser) {
    const { id, username: name, disabled } = user;
    const admin = user.role === 'SUPER_ADMIN';
    return (
      <div class="row-actions">
        <ActionButton
          label={admin ? m.users.makeUserNamed(name) : m.users.makeSuperAdminNamed(name)}
          run={async () => {
            // Giving up one's own role signs one out at once: asked first.
            if (admin && id === me.id && !(await confirmSelf('demote'))) return;
            await change(
              t((m) => m.users.nowRole(name, !admin)),
              () =>
                api.auth.PutUserRole({ body: { user_id: id, super_admin: !admin } }, { signal }),
            );
          }}
        >
          {admin ? m.users.makeUser : m.users.makeSuperAdmin}
        </ActionButton>
        <ActionButton
          label={disabled ? m.users.enableNamed(name) : m.users.disableNamed(name)}
          run={async () => {
            if (!disabled && id === me.id && !(await confirmSelf('disable'))) return;
            await change(
              t((m) => m.users.nowStatus(name, !disabled)),
              () =>
                api.auth.PutUserStatus({ body: { user_id: id, disabled: !disabled } }, { signal }),
            );
          }}
        >
          {disabled ? m.users.enable : m.users.disable}
        </ActionButton>
        <ActionButton
          label={m.users.resetPasswordNamed(name)}
          run={async () => {
            const password = await passwordDialog(name);
            if (password === undefined) return;
            await change(
              t((m) => m.users.passwordReset(name)),
              () => api.auth.PutUserPassword({ body: { user_id: id, password } }, { signal }),
            );
          }}
        >
          {m.users.resetPassword}
        </ActionButton>
        <ActionButton
          label={m.users.deleteNamed(name)}
          danger
          run={async () => {
            const sure = await confirmDialog((m) => ({
              title: m.users.deleteTitle(name),
              message: m.users.deleteMessage,
              confirm: m.users.deleteConfirm,
              danger: true,
            }));
            if (!sure) return;
            await change(
              t((m) => m.users.deleted(name)),
              () => api.auth.DeleteUser({ user_id: id }, { signal }),
            );
          }}
        >
          {m.users.delete}
        </ActionButton>
      </div>
    );
  }

  const columns: Column<ManagedUser>[] = [
    {
      header: m.users.user,
      rowHeader: true,
      cell: (user) => (
        <>
          {user.username}
          {user.id === me.id && <span class="you">{m.users.you}</span>}
        </>
      ),
    },
    {
      header: m.users.role,
      cell: (user) =>
        user.role === 'SUPER_ADMIN' ? (
          <span class="badge admin">{m.users.roleSuperAdmin}</span>
        ) : (
          <span class="badge">{m.users.roleUser}</span>
        ),
    },
    {
      header: m.users.status,
      cell: (user) =>
        user.disabled ? (
          <span class="badge off">{m.users.disabled}</span>
        ) : (
          <span class="badge on">{m.users.active}</span>
        ),
    },
    {
      header: m.users.created,
      cell: (user) => <time dateTime={user.created_at}>{formatDate(user.created_at)}</time>,
    },
    { header: m.users.actions, actions: true, cell: actions },
  ];

  return (
    <DataTable
      class="users"
      caption={m.users.count(total)}
      columns={columns}
      rows={users}
      rowKey={(user) => user.id}
      rowProps={(user) => ({
        'data-username': user.username,
        class: user.disabled ? 'disabled' : undefined,
      })}
    />
  );
}
