import { Field } from '../components/field';
import { messages } from '../i18n/messages';
import { useUniqueId } from '../components/unique-id';

export interface NewUser {
  username: string;
  password: string;
  super_admin: boolean;
}

/**
 * The form that adds a user: username, password, super admin or not. `add` resolves whether
 * the user was added; then the form is cleared for the next one.
 */
export function CreateUserForm({ add }: { add(user: NewUser): Promise<boolean> }) {
  const adminId = useUniqueId('new-admin');
  const m = messages();

  async function submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const added = await add({
      username: String(data.get('username') ?? '').trim(),
      password: String(data.get('password') ?? ''),
      super_admin: data.get('super_admin') === 'on',
    });
    if (added) form.reset();
  }

  return (
    <form class="card create-user" onSubmit={(event) => void submit(event)}>
      <h2>{m.users.addUser}</h2>
      <div class="form-row">
        <Field label={m.users.username}>
          {({ id }) => (
            <input
              id={id}
              name="username"
              autocomplete="off"
              required
              minLength={3}
              maxLength={50}
            />
          )}
        </Field>
        <Field label={m.users.password}>
          {({ id }) => (
            <input
              id={id}
              name="password"
              type="password"
              autocomplete="new-password"
              required
              minLength={8}
              maxLength={128}
            />
          )}
        </Field>
        <div class="field checkbox">
          <input id={adminId} name="super_admin" type="checkbox" />
          <label for={adminId}>{m.users.superAdmin}</label>
        </div>
        <button type="submit" class="button primary">
          {m.users.add}
        </button>
      </div>
    </form>
  );
}
