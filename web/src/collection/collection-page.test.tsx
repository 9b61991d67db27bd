import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Collection, CollectionMember } from '../api/services';
import type { CollectionStore } from '../collection-store';
import { setLocale } from '../i18n/locale';
import { ME, refusal, renderInSession, testSession } from '../testing/session';
import { CollectionPage } from './collection-page';

const ID = '22222222-2222-4222-8222-222222222222';
const collection = (role: Collection['role']): Collection =>
  ({ id: ID, name: 'Library', description: 'Plans', role, shared: false, files: 3 }) as Collection;
const member = (
  username: string,
  role: CollectionMember['role'],
  user_id: string = crypto.randomUUID(),
) => ({ user_id, username, role, added_at: '2026-01-01T00:00:00.000Z' }) as CollectionMember;
const store = { refresh: vi.fn(async () => {}) } as unknown as CollectionStore;

describe('a collection’s members page', () => {
  beforeEach(() => setLocale('en'));

  it('gives an owner the settings, the roles and a way to add members, in plain words when refused', async () => {
    const members = [member('ada', 'owner', ME.id), member('bo', 'viewer')];
    renderInSession(
      <CollectionPage id={ID} collections={store} />,
      testSession({
        knowledge: {
          GetCollection: async () => collection('owner'),
          GetCollectionMembers: async () => members,
          PostCollectionMember: () => Promise.reject(refusal(404, 'not_found')),
          PutCollectionMember: () => Promise.reject(refusal(409, 'last_owner')),
        },
      }),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Library' })).toBeTruthy();
    expect(screen.getByText(/Your role: Owner · 3 files/)).toBeTruthy();
    expect(screen.getByRole('table', { name: '2 members' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Remove: bo' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Remove: ada' })).toBeNull();

    const add = screen.getByRole('heading', { name: 'Add a member' }).closest('form')!;
    fireEvent.input(within(add).getByLabelText('Username'), { target: { value: 'nobody' } });
    fireEvent.submit(add);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'nobody could not be added: There is no active user named nobody.',
    );

    const own = screen.getByRole('combobox', { name: 'Role of ada' }) as HTMLSelectElement;
    fireEvent.change(own, { target: { value: 'viewer' } });
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toMatch(/^The change was not made: /),
    );
    expect(own.value).toBe('owner');
  });

  it('shows a viewer who is in it, with nothing to change but leaving', async () => {
    renderInSession(
      <CollectionPage id={ID} collections={store} />,
      testSession({
        knowledge: {
          GetCollection: async () => collection('viewer'),
          GetCollectionMembers: async () => [member('ada', 'viewer', ME.id), member('bo', 'owner')],
        },
      }),
    );
    const row = await screen.findByRole('row', { name: /^bo/ });
    expect(within(row).getByText('Owner').className).toBe('badge admin');
    expect(screen.queryByRole('combobox')).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Add a member' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete collection' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Leave' })).toBeTruthy();
  });

  it('says a collection is not there when the service does not show it', async () => {
    renderInSession(
      <CollectionPage id={ID} collections={store} />,
      testSession({
        knowledge: {
          GetCollection: () => Promise.reject(refusal(404, 'not_found')),
          GetCollectionMembers: () => Promise.reject(refusal(404, 'not_found')),
        },
      }),
    );
    expect(
      await screen.findByText('This collection does not exist, or you are not one of its members.'),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the chat' })).toBeTruthy();
  });
});
