import { useState } from 'preact/hooks';
import { Field } from '../components/field';
import { Notice } from '../components/notice';
import { useUniqueId } from '../components/unique-id';
import { messages } from '../i18n/messages';

export interface PasswordChange {
  old_password: string;
  new_password: string;
}

/**
 * Changing one's own password: the current one, the new one twice (8 to 128 characters, as
 * the service requires). `change` resolves whether it was changed; then the form is cleared.
 */
export function PasswordForm({ change }: { change(body: PasswordChange): Promise<boolean> }) {
  const titleId = useUniqueId('password-title');
  const [differ, setDiffer] = useState(false);
  const [busy, setBusy] = useState(false);
  const m = messages();

  async function submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const body = {
      old_password: String(data.get('old_password') ?? ''),
      new_password: String(data.get('new_password') ?? ''),
    };
    const repeated = body.new_password === String(data.get('repeat_password') ?? '');
    setDiffer(!repeated);
    if (!repeated || busy) return;
    setBusy(true);
    try {
      if (await change(body)) form.reset();
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      class="card password-form"
      aria-labelledby={titleId}
      onSubmit={(event) => void submit(event)}
    >
      <h2 id={titleId}>{m.account.changePassword}</h2>
      <Field label={m.account.currentPassword}>
        {({ id }) => (
          <input
            id={id}
            name="old_password"
            type="password"
            autocomplete="current-password"
            required
            maxLength={128}
          />
        )}
      </Field>
      <Field label={m.account.newPassword} hint={m.account.passwordHint}>
        {({ id, hintId }) => (
          <input
            id={id}
            name="new_password"
            type="password"
            autocomplete="new-password"
            required
            minLength={8}
            maxLength={128}
            aria-describedby={hintId}
          />
        )}
      </Field>
      <Field label={m.account.repeatPassword}>
        {({ id }) => (
          <input
            id={id}
            name="repeat_password"
            type="password"
            autocomplete="new-password"
            required
            minLength={8}
            maxLength={128}
            aria-invalid={differ || undefined}
            onInput={() => setDiffer(false)}
          />
        )}
      </Field>
      <Notice tone="error" text={differ && m.account.passwordsDiffer} />
      <button type="submit" class="button primary" disabled={busy}>
        {m.account.savePassword}
      </button>
    </form>
  );
}
