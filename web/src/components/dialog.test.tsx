import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { beforeEach, describe, expect, it } from 'vitest';
import { t } from '../i18n/bind';
import { setLocale } from '../i18n/locale';
import { confirmDialog } from './confirm-dialog';
import { Field } from './field';
import { FormDialog } from './form-dialog';
import { Dialog, DialogActions, openDialog } from './dialog';
import { Page } from './page';

/** A button on the page that had the focus before the dialog opened. */
function focusedOpener(): HTMLButtonElement {
  const opener = document.body.appendChild(document.createElement('button'));
  opener.textContent = 'Open';
  opener.focus();
  return opener;
}

describe('a dialog', () => {
  beforeEach(() => setLocale('en'));

  it('is a modal dialog named by its title, answers with done(), and gives the focus back', async () => {
    const opener = focusedOpener();
    const answer = openDialog<string>(
      (done) => (
        <Dialog title="Pick one">
          <DialogActions>
            <button type="button" onClick={() => done('a')}>
              A
            </button>
          </DialogActions>
        </Dialog>
      ),
      'none',
    );
    const dialog = screen.getByRole('dialog', { name: 'Pick one' });
    expect((dialog as HTMLDialogElement).open).toBe(true);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'A' }));
    fireEvent.click(screen.getByRole('button', { name: 'A' }));
    expect(await answer).toBe('a');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('asks before a change, Cancel first, and Escape answers no', async () => {
    focusedOpener();
    const sure = confirmDialog((m) => ({
      title: m.users.deleteTitle('casey'),
      message: m.users.deleteMessage,
      confirm: m.users.deleteConfirm,
      danger: true,
    }));
    const dialog = screen.getByRole('dialog', { name: 'Delete casey?' });
    expect(dialog.textContent).toContain('The account is removed');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('button', { name: 'Delete user' }).className).toContain('danger');
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(await sure).toBe(false);

    const yes = confirmDialog((m) => ({
      title: m.users.deleteTitle('casey'),
      message: m.users.deleteMessage,
      confirm: m.users.deleteConfirm,
    }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete user' }));
    expect(await yes).toBe(true);
  });

  it('is named by its own title over a page whose heading is named the same way', () => {
    render(
      <Page class="users-page" heading="Users">
        {null}
      </Page>,
    );
    void confirmDialog(() => ({ title: 'Delete casey?', message: '', confirm: 'OK' }));
    expect(screen.getByRole('dialog', { name: 'Delete casey?' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Users' })).toBeTruthy();
  });

  it('follows a language switch while it is open', async () => {
    void confirmDialog((m) => ({
      title: m.users.deleteTitle('casey'),
      message: '',
      confirm: 'OK',
    }));
    setLocale('zh');
    expect(await screen.findByRole('dialog', { name: '删除 casey？' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '取消' })).toBeTruthy();
  });
});

describe('a form dialog', () => {
  beforeEach(() => setLocale('en'));

  function nameDialog(
    submit: (name: string) => ReturnType<Parameters<typeof FormDialog>[0]['onSubmit']>,
  ) {
    return openDialog<string | undefined>(
      (done) => (
        <FormDialog
          title="Name it"
          message="Any name will do."
          submit="Save"
          onCancel={() => done(undefined)}
          onSubmit={async (data) => {
            const problem = await submit(String(data.get('name')));
            if (!problem) done(String(data.get('name')));
            return problem;
          }}
        >
          <Field label="Name">{({ id }) => <input id={id} name="name" required autofocus />}</Field>
        </FormDialog>
      ),
      undefined,
    );
  }

  it('starts in its first field, and sends nothing while a required field is empty', async () => {
    let sent = 0;
    const answer = nameDialog(() => void (sent += 1));
    const name = screen.getByLabelText('Name');
    expect(document.activeElement).toBe(name);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(sent).toBe(0);
    fireEvent.input(name, { target: { value: 'Atlas' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await answer).toBe('Atlas');
    expect(sent).toBe(1);
  });

  it('shows why it was refused and keeps what was typed; Cancel answers nothing', async () => {
    const answer = nameDialog(async () => t(() => 'That name is taken.'));
    fireEvent.input(screen.getByLabelText('Name'), { target: { value: 'Atlas' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe('That name is taken.');
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Atlas');
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await answer).toBeUndefined();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
