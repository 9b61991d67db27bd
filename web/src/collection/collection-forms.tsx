import type { Collection, CollectionRole } from '../api/services';
import { Field } from '../components/field';
import { messages } from '../i18n/messages';

/** The roles a member can be given, least first. */
export const ROLES = ['viewer', 'editor', 'owner'] as const;
export type Role = (typeof ROLES)[number];

/** The options of a role choice, each role named in the reader's language. */
export function RoleOptions({ selected }: { selected?: CollectionRole }) {
  const m = messages();
  return (
    <>
      {ROLES.map((role) => (
        <option key={role} value={role} selected={role === selected}>
          {m.collections.role(role)}
        </option>
      ))}
    </>
  );
}

/** An owner's form to rename the collection and describe it. */
export function SettingsForm(props: {
  collection: Collection;
  save(name: string, description: string): void;
}) {
  const m = messages();
  return (
    <form
      class="card collection-settings"
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        const name = String(data.get('name')).trim();
        if (name) props.save(name, String(data.get('description')).trim());
      }}
    >
      <h2>{m.collections.settings}</h2>
      <div class="form-row">
        <Field label={m.collections.name}>
          {({ id }) => (
            <input
              id={id}
              name="name"
              autocomplete="off"
              required
              maxLength={100}
              defaultValue={props.collection.name}
            />
          )}
        </Field>
        <Field label={m.collections.description}>
          {({ id }) => (
            <input
              id={id}
              name="description"
              autocomplete="off"
              maxLength={1000}
              defaultValue={props.collection.description}
            />
          )}
        </Field>
        <button type="submit" class="button primary">
          {m.collections.save}
        </button>
      </div>
    </form>
  );
}

/** An owner's form to add a member by username, with a role. */
export function AddMemberForm(props: { add(username: string, role: Role): void }) {
  const m = messages();
  return (
    <form
      class="card add-member"
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        const username = String(data.get('username')).trim();
        if (username) props.add(username, data.get('role') as Role);
      }}
    >
      <h2>{m.collections.addMember}</h2>
      <div class="form-row">
        <Field label={m.collections.username}>
          {({ id }) => (
            <input id={id} name="username" autocomplete="off" required maxLength={100} />
          )}
        </Field>
        <Field label={m.collections.roleLabel} class="role">
          {({ id }) => (
            <select id={id} name="role">
              <RoleOptions />
            </select>
          )}
        </Field>
        <button type="submit" class="button primary">
          {m.collections.add}
        </button>
      </div>
    </form>
  );
}
