import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Login } from '../api/services';
import { setLocale } from '../i18n/locale';
import { refusal, renderInSession, testSession } from '../testing/session';
import { AccountPage } from './account-page';

const NEW_LOGIN: Login = { token: 'new.token.here', expire: '2026-12-01T00:00:00.000Z' };

function options(password: boolean) {
  return vi.fn(async () => ({ password, signup: false, sso: null }));
}

function fillPassword(form: HTMLElement, old: string, fresh: string, again = fresh) {
  fireEvent.input(within(form).getByLabelText('Current password'), { target: { value: old } });
  fireEvent.input(within(form).getByLabelText('New password'), { target: { value: fresh } });
  fireEvent.input(within(form).getByLabelText('New password again'), { target: { value: again } });
  fireEvent.submit(form);
}

describe('my account', () => {
  beforeEach(() => setLocale('en'));

  it('says who I am: username and role', async () => {
    renderInSession(
      <AccountPage renewed={() => undefined} />,
      testSession({ auth: { GetSignInOptions: options(true) } }, { username: 'bo', role: 'USER' }),
    );
    expect(screen.getByRole('heading', { level: 1, name: 'My account' })).toBeTruthy();
    const who = screen.getByRole('region', { name: 'Who I am' });
    expect(within(who).getByText('bo')).toBeTruthy();
    expect(within(who).getByText('User')).toBeTruthy();
  });

  it('changes the password: the new token replaces the session’s, and the form is cleared', async () => {
    const PutPassword = vi.fn(async () => NEW_LOGIN);
    const renewed = vi.fn();
    renderInSession(
      <AccountPage renewed={renewed} />,
      testSession({ auth: { GetSignInOptions: options(true), PutPassword } }),
    );
    const form = screen.getByRole('form', { name: 'Change password' });
    fillPassword(form, 'old-password', 'brand-new-password');
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(
        'Your password was changed. Your other sessions have ended; this one carries on.',
      ),
    );
    expect(PutPassword).toHaveBeenCalledWith(
      { body: { old_password: 'old-password', new_password: 'brand-new-password' } },
      expect.anything(),
    );
    expect(renewed).toHaveBeenCalledWith(NEW_LOGIN);
    expect((within(form).getByLabelText('Current password') as HTMLInputElement).value).toBe('');
  });

  it('asks nothing of the service when the two new passwords differ', async () => {
    const PutPassword = vi.fn(async () => NEW_LOGIN);
    renderInSession(
      <AccountPage renewed={() => undefined} />,
      testSession({ auth: { GetSignInOptions: options(true), PutPassword } }),
    );
    const form = screen.getByRole('form', { name: 'Change password' });
    fillPassword(form, 'old-password', 'brand-new-password', 'brand-new-passwort');
    expect(within(form).getByRole('alert').textContent).toBe(
      'The new password and its repetition are not the same.',
    );
    expect(PutPassword).not.toHaveBeenCalled();
    expect((within(form).getByLabelText('New password') as HTMLInputElement).value).toBe(
      'brand-new-password',
    );
  });

  it('a wrong password or too many attempts are said in the reader’s language; what was typed stays', async () => {
    const PutPassword = vi
      .fn()
      .mockRejectedValueOnce(refusal(400, 'wrong_password'))
      .mockRejectedValueOnce(refusal(429, 'too_many_attempts'));
    const renewed = vi.fn();
    renderInSession(
      <AccountPage renewed={renewed} />,
      testSession({ auth: { GetSignInOptions: options(true), PutPassword } }),
    );
    const form = screen.getByRole('form', { name: 'Change password' });
    fillPassword(form, 'not-my-password', 'brand-new-password');
    const problem = () =>
      screen.getAllByRole('alert').find((alert) => !alert.hidden && !form.contains(alert));
    await waitFor(() => expect(problem()?.textContent).toMatch(/^The password was not changed: /));
    const english = problem()!.textContent;
    setLocale('zh');
    await waitFor(() => expect(problem()?.textContent).toMatch(/^密码未修改：/));
    expect(problem()!.textContent).not.toBe(english);
    setLocale('en');
    fireEvent.submit(form);
    await waitFor(() => expect(PutPassword).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(problem()?.textContent).not.toBe(english));
    expect(renewed).not.toHaveBeenCalled();
    expect((within(form).getByLabelText('Current password') as HTMLInputElement).value).toBe(
      'not-my-password',
    );
  });

  it('offers no password form when local passwords are off', async () => {
    renderInSession(
      <AccountPage renewed={() => undefined} />,
      testSession({ auth: { GetSignInOptions: options(false) } }),
    );
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Change password' })).toBeNull());
    expect(screen.getByText(/single sign-on/)).toBeTruthy();
    expect(screen.queryByLabelText('Current password')).toBeNull();
  });

  it('signs out my other sessions after a confirmation, and takes the new token', async () => {
    const PostLogoutOthers = vi.fn(async () => NEW_LOGIN);
    const renewed = vi.fn();
    renderInSession(
      <AccountPage renewed={renewed} />,
      testSession({ auth: { GetSignInOptions: options(true), PostLogoutOthers } }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Sign out my other sessions' }));
    const dialog = screen.getByRole('dialog', { name: 'Sign out your other sessions?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(PostLogoutOthers).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Sign out my other sessions' }));
    fireEvent.click(screen.getByRole('button', { name: 'Sign out the others' }));
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe('Your other sessions have ended.'),
    );
    expect(renewed).toHaveBeenCalledWith(NEW_LOGIN);
  });
});
