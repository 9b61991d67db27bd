import { Field } from '../components/field';
import { FormDialog } from '../components/form-dialog';
import { openDialog } from '../components/dialog';
import { messages } from '../i18n/messages';

/** Asks for a user's new password (8 to 128 characters, as the service requires). */
export function passwordDialog(username: string): Promise<string | undefined> {
  return openDialog<string | undefined>((done) => {
    const m = messages();
    return (
      <FormDialog
        title={m.users.newPasswordFor(username)}
        message={m.users.newPasswordMessage}
        submit={m.dialogs.setPassword}
        onCancel={() => done(undefined)}
        onSubmit={(data) => done(String(data.get('password')))}
      >
        <Field label={m.dialogs.newPassword} hint={m.dialogs.passwordHint}>
          {({ id, hintId }) => (
            <input
              id={id}
              name="password"
              type="password"
              autocomplete="new-password"
              required
              minLength={8}
              maxLength={128}
              aria-describedby={hintId}
              autofocus
            />
          )}
        </Field>
      </FormDialog>
    );
  }, undefined);
}
