import type { Collection, CollectionMember } from '../api/services';
import { ActionButton } from '../components/action-button';
import { DataTable, type Column } from '../components/data-table';
import { useApp } from '../context';
import { formatDate } from '../i18n/format';
import { messages } from '../i18n/messages';
import { RoleOptions, type Role } from './collection-forms';

export interface MembersTableProps {
  collection: Collection;
  members: CollectionMember[];
  /** Whether the reader owns the collection: they change roles and remove members. */
  owner: boolean;
  /** Gives `member` another role; resolves whether the service took it. */
  changeRole(member: CollectionMember, role: Role): Promise<boolean>;
  remove(member: CollectionMember): Promise<void>;
}

/** Who is in a collection, with which role since when; an owner's controls for each. */
export function MembersTable({
  collection,
  members,
  owner,
  changeRole,
  remove,
}: MembersTableProps) {
  const { me } = useApp();
  const m = messages();

  function role(member: CollectionMember) {
    if (!owner) {
      return (
        <span class={member.role === 'owner' ? 'badge admin' : 'badge'}>
          {m.collections.role(member.role)}
        </span>
      );
    }
    return (
      <select
        aria-label={m.collections.roleOf(member.username)}
        onChange={async (event) => {
          const select = event.currentTarget;
          select.disabled = true;
          // Refused (the last owner): the choice goes back to what holds.
          if (!(await changeRole(member, select.value as Role))) select.value = member.role;
          select.disabled = false;
        }}
      >
        <RoleOptions selected={member.role} />
      </select>
    );
  }

  const columns: Column<CollectionMember>[] = [
    {
      header: m.collections.user,
      rowHeader: true,
      cell: (member) => (
        <>
          {member.username}
          {member.user_id === me.id && <span class="you">{m.collections.you}</span>}
        </>
      ),
    },
    { header: m.collections.roleLabel, cell: role },
    {
      header: m.collections.added,
      cell: (member) => <time dateTime={member.added_at}>{formatDate(member.added_at)}</time>,
    },
    {
      header: m.collections.actions,
      actions: true,
      cell: (member) =>
        owner &&
        member.user_id !== me.id && (
          <div class="row-actions">
            <ActionButton
              label={m.collections.removeNamed(member.username)}
              danger
              run={() => remove(member)}
            >
              {m.collections.remove}
            </ActionButton>
          </div>
        ),
    },
  ];

  return (
    <DataTable
      class="users members"
      caption={m.collections.memberCount(members.length)}
      columns={columns}
      rows={members}
      rowKey={(member) => `${collection.id}:${member.user_id}`}
      rowProps={(member) => ({ 'data-username': member.username })}
    />
  );
}
