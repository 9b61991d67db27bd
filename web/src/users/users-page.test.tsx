import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ManagedUser } from '../api/services';
import { setLocale } from '../i18n/locale';
import { ME, refusal, renderInSession, testSession } from '../testing/session';
import { UsersPage } from './users-page';

const user = (username: string, extra: Partial<ManagedUser> = {}): ManagedUser => ({
  id: crypto.randomUUID(),
  username,
  role: 'USER',
  disabled: false,
  created_at: '2026-03-04T05:06:07.000Z',
  updated_at: '2026-03-04T05:06:07.000Z',
  ...extra,
});

/** A service with these users, 20 to a page, that records what it was asked to do. */
function service(initial: ManagedUser[]) {
  let users = [...initial];
  const ListUsers = vi.fn(async ({ page, size }: { page: number; size: number }) => ({
    items: users.slice((page - 1) * size, page * size),
    total: users.length,
    page,
    size,
  }));
  const CreateUser = vi.fn(
    async ({ body }: { body: { username: string; super_admin: boolean } }) => {
      if (users.some((u) => u.username.toLowerCase() === body.username.toLowerCase()))
        throw refusal(409, 'username_taken');
      const added = user(body.username, { role: body.super_admin ? 'SUPER_ADMIN' : 'USER' });
      users = [...users, added];
      return added;
    },
  );
  const DeleteUser = vi.fn(async ({ user_id }: { user_id: string }) => {
    users = users.filter((u) => u.id !== user_id);
  });
  return { auth: { ListUsers, CreateUser, DeleteUser } };
}

describe('the users page', () => {
  beforeEach(() => setLocale('en'));

  it('lists the users with their role and status, the signed-in one marked', async () => {
    const me = user('ada', { id: ME.id, role: 'SUPER_ADMIN' });
    renderInSession(<UsersPage />, testSession(service([me, user('bo', { disabled: true })])));
    expect(screen.getByRole('heading', { level: 1, name: 'Users' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: '2 users' });
    const ada = within(table).getByRole('row', { name: /^ada/ });
    expect(within(ada).getByRole('rowheader').textContent).toBe('ada (you)');
    expect(within(ada).getByText('Super admin')).toBeTruthy();
    const bo = within(table).getByRole('row', { name: /^bo/ });
    expect(bo.className).toBe('disabled');
    expect(within(bo).getByText('Disabled')).toBeTruthy();
    expect(within(bo).getByRole('button', { name: 'Enable: bo' })).toBeTruthy();
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('adds a user and clears the form; a refusal is shown, and what was typed stays', async () => {
    renderInSession(<UsersPage />, testSession(service([user('bo')])));
    const form = (await screen.findByRole('heading', { name: 'Add a user' })).closest('form')!;
    fireEvent.input(within(form).getByLabelText('Username'), { target: { value: 'casey' } });
    fireEvent.input(within(form).getByLabelText('Password'), {
      target: { value: 'first-password' },
    });
    fireEvent.submit(form);
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe('casey was added as user.'),
    );
    expect(await screen.findByRole('row', { name: /^casey/ })).toBeTruthy();
    expect((within(form).getByLabelText('Username') as HTMLInputElement).value).toBe('');

    fireEvent.input(within(form).getByLabelText('Username'), { target: { value: 'CASEY' } });
    fireEvent.input(within(form).getByLabelText('Password'), {
      target: { value: 'other-password' },
    });
    fireEvent.submit(form);
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        'CASEY could not be added: That username is taken.',
      ),
    );
    expect(screen.getByRole('status').textContent).toBe('');
    expect((within(form).getByLabelText('Username') as HTMLInputElement).value).toBe('CASEY');
  });

  it('asks before deleting a user, and deletes only when told to', async () => {
    const api = service([user('bo')]);
    renderInSession(<UsersPage />, testSession(api));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete: bo' }));
    fireEvent.click(
      within(screen.getByRole('dialog', { name: 'Delete bo?' })).getByRole('button', {
        name: 'Cancel',
      }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.auth.DeleteUser).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Delete: bo' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete user' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('bo was deleted.'));
    expect(await screen.findByRole('table', { name: '0 users' })).toBeTruthy();
  });

  it('asks before a super admin gives up their own role or disables themselves; others at once', async () => {
    const me = user('ada', { id: ME.id, role: 'SUPER_ADMIN' });
    const api = service([me, user('bo', { role: 'SUPER_ADMIN' })]);
    const PutUserRole = vi.fn(async () => undefined);
    const PutUserStatus = vi.fn(async () => undefined);
    renderInSession(
      <UsersPage />,
      testSession({ auth: { ...api.auth, PutUserRole, PutUserStatus } }),
    );
    const table = await screen.findByRole('table', { name: '2 users' });
    const ada = within(table).getByRole('row', { name: /^ada/ });
    const roleButton = within(ada).getAllByRole('button')[0]!;
    fireEvent.click(roleButton);
    const ask = await screen.findByRole('dialog', { name: 'Give up your super admin role?' });
    fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(PutUserRole).not.toHaveBeenCalled();

    fireEvent.click(within(ada).getAllByRole('button')[1]!);
    const disable = await screen.findByRole('dialog', { name: 'Disable your own account?' });
    fireEvent.click(within(disable).getByRole('button', { name: 'Disable my account' }));
    await waitFor(() =>
      expect(PutUserStatus).toHaveBeenCalledWith(
        { body: { user_id: ME.id, disabled: true } },
        expect.anything(),
      ),
    );

    // Another super admin: no question asked.
    const bo = within(table).getByRole('row', { name: /^bo/ });
    fireEvent.click(within(bo).getAllByRole('button')[0]!);
    await waitFor(() => expect(PutUserRole).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('pages through many users, and steps back when the last page empties', async () => {
    const many = Array.from({ length: 21 }, (_, i) => user(`user${String(i).padStart(2, '0')}`));
    renderInSession(<UsersPage />, testSession(service(many)));
    const pager = await screen.findByRole('navigation', { name: 'Pages of users' });
    expect(pager.textContent).toContain('Page 1 of 2');
    fireEvent.click(within(pager).getByRole('button', { name: 'Next' }));
    await screen.findByRole('row', { name: /^user20/ });
    fireEvent.click(screen.getByRole('button', { name: 'Delete: user20' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete user' }));
    await screen.findByRole('row', { name: /^user19/ });
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('says "Access denied" to a user who is not a super admin', async () => {
    const session = testSession({
      auth: { ListUsers: () => Promise.reject(refusal(403, 'permission_denied')) },
    });
    renderInSession(<UsersPage />, session);
    expect(await screen.findByRole('heading', { level: 1, name: 'Access denied' })).toBeTruthy();
    expect(screen.getByText('Only super admins can see and manage users.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the chat' }).getAttribute('href')).toBe('#/');
    expect(screen.queryByRole('table')).toBeNull();
  });
});
