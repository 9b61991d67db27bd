import type { ApiKey } from '../api/services';
import { ActionButton } from '../components/action-button';
import { confirmDialog } from '../components/confirm-dialog';
import { DataTable, type Column } from '../components/data-table';
import { t, type Localized } from '../i18n/bind';
import { formatDate } from '../i18n/format';
import { messages } from '../i18n/messages';

export interface ApiKeysTableProps {
  keys: readonly ApiKey[];
  /** Revokes a key (the user said yes) and says `done`, or why not. */
  revoke(key: ApiKey, done: Localized): Promise<void>;
}

/** A key past its expiry: the service refuses it already; it is listed until revoked. */
export const hasExpired = (key: ApiKey, now = Date.now()) =>
  key.expires_at !== null && Date.parse(key.expires_at) <= now;

const when = (iso: string) => <time dateTime={iso}>{formatDate(iso)}</time>;

/** The user's keys: name, first characters, made, last used, expiry, and Revoke. */
export function ApiKeysTable({ keys, revoke }: ApiKeysTableProps) {
  const m = messages();
  const columns: Column<ApiKey>[] = [
    { header: m.account.name, rowHeader: true, cell: (key) => key.name },
    { header: m.account.prefix, cell: (key) => <code>{key.prefix}…</code> },
    { header: m.account.created, cell: (key) => when(key.created_at) },
    {
      header: m.account.lastUsed,
      cell: (key) => (key.last_used_at ? when(key.last_used_at) : m.account.neverUsed),
    },
    {
      header: m.account.expires,
      cell: (key) =>
        key.expires_at === null ? (
          m.account.untilRevoked
        ) : hasExpired(key) ? (
          <>
            <span class="badge off">{m.account.expired}</span> {when(key.expires_at)}
          </>
        ) : (
          when(key.expires_at)
        ),
    },
    {
      header: m.account.actions,
      actions: true,
      cell: (key) => (
        <ActionButton
          label={m.account.revokeNamed(key.name)}
          danger
          run={async () => {
            const sure = await confirmDialog((m) => ({
              title: m.account.revokeTitle(key.name),
              message: m.account.revokeMessage,
              confirm: m.account.revokeConfirm,
              danger: true,
            }));
            if (sure)
              await revoke(
                key,
                t((m) => m.account.revoked(key.name)),
              );
          }}
        >
          {m.account.revoke}
        </ActionButton>
      ),
    },
  ];
  return (
    <DataTable
      class="users api-keys"
      caption={m.account.keyCount(keys.length)}
      columns={columns}
      rows={keys}
      rowKey={(key) => key.id}
      rowProps={(key) => ({
        'data-key': key.name,
        class: hasExpired(key) ? 'expired' : undefined,
      })}
    />
  );
}
