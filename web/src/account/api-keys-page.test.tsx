import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiKey } from '../api/services';
import { setLocale } from '../i18n/locale';
import { refusal, renderInSession, testSession } from '../testing/session';
import { ApiKeysPage } from './api-keys-page';
import { endOfDay } from './create-key-form';

const DAY = 86_400_000;
const key = (name: string, extra: Partial<ApiKey> = {}): ApiKey => ({
  id: crypto.randomUUID(),
  name,
  prefix: 'kbc_AbCd',
  created_at: '2026-03-04T05:06:07.000Z',
  last_used_at: null,
  expires_at: null,
  ...extra,
});

/** A service with these keys that records what it was asked to do. */
function service(initial: ApiKey[]) {
  let keys = [...initial];
  const GetApiKeys = vi.fn(async () => ({ items: keys }));
  const PostApiKey = vi.fn(async ({ body }: { body: { name: string; expires_at?: string } }) => {
    if (body.name === 'taken') throw refusal(409, 'too_many_api_keys');
    const made = key(body.name, { expires_at: body.expires_at ?? null });
    keys = [made, ...keys];
    return { ...made, key: `kbc_${'x'.repeat(43)}` };
  });
  const DeleteApiKey = vi.fn(async ({ id }: { id: string }) => {
    keys = keys.filter((k) => k.id !== id);
  });
  return { auth: { GetApiKeys, PostApiKey, DeleteApiKey } };
}

describe('my API keys', () => {
  beforeEach(() => setLocale('en'));

  it('lists each key with its first characters, use and expiry; an expired one says so', async () => {
    const past = new Date(Date.now() - DAY).toISOString();
    const future = new Date(Date.now() + 30 * DAY).toISOString();
    renderInSession(
      <ApiKeysPage />,
      testSession(
        service([
          key('reports', { last_used_at: '2026-03-05T00:00:00.000Z', expires_at: future }),
          key('old script', { expires_at: past }),
          key('forever'),
        ]),
      ),
    );
    const table = await screen.findByRole('table', { name: '3 keys' });
    const reports = within(table).getByRole('row', { name: /^reports/ });
    expect(within(reports).getByText('kbc_AbCd…')).toBeTruthy();
    expect(within(reports).queryByText('Expired')).toBeNull();
    expect(within(reports).queryByText('Never')).toBeNull();
    const old = within(table).getByRole('row', { name: /^old script/ });
    expect(old.className).toBe('expired');
    expect(within(old).getByText('Expired')).toBeTruthy();
    expect(within(old).getByText('Never')).toBeTruthy();
    const forever = within(table).getByRole('row', { name: /^forever/ });
    expect(within(forever).getByText('Until revoked')).toBeTruthy();
  });

  it('creates a key with a last day and shows it once, with a copy button and the warning', async () => {
    const fake = service([]);
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderInSession(<ApiKeysPage />, testSession(fake));
    await screen.findByText('You have no API keys.');
    const form = screen.getByRole('heading', { name: 'Create a key' }).closest('form')!;
    fireEvent.input(within(form).getByLabelText('Name'), { target: { value: ' MCP client ' } });
    fireEvent.input(within(form).getByLabelText('Expires'), { target: { value: '2031-05-06' } });
    fireEvent.submit(form);

    const dialog = await screen.findByRole('dialog', { name: 'Your new key: MCP client' });
    expect(fake.auth.PostApiKey).toHaveBeenCalledWith(
      { body: { name: 'MCP client', expires_at: endOfDay('2031-05-06') } },
      expect.anything(),
    );
    // Both warnings look like warnings; only a copy that worked is said as a success.
    expect(within(dialog).getByText(/will not be shown again/).className).toBe('notice warning');
    const secret = within(dialog).getByLabelText('API key') as HTMLInputElement;
    expect(secret.value).toBe(`kbc_${'x'.repeat(43)}`);
    expect(secret.readOnly).toBe(true);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(within(dialog).getByRole('status').textContent).toBe('Copied.'));
    expect(within(dialog).getByRole('status').className).toBe('copy-status');
    expect(writeText).toHaveBeenCalledWith(secret.value);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // The key is gone from the page for good: the list shows only its first characters.
    expect(document.body.textContent).not.toContain('x'.repeat(43));
    expect(await screen.findByRole('row', { name: /^MCP client/ })).toBeTruthy();
    expect((within(form).getByLabelText('Name') as HTMLInputElement).value).toBe('');
  });

  it('starts on Copy, and warns before a Done that would lose a key never copied', async () => {
    const fake = service([]);
    renderInSession(<ApiKeysPage />, testSession(fake));
    await screen.findByText('You have no API keys.');
    const form = screen.getByRole('heading', { name: 'Create a key' }).closest('form')!;
    fireEvent.input(within(form).getByLabelText('Name'), { target: { value: 'script' } });
    fireEvent.submit(form);
    const dialog = await screen.findByRole('dialog', { name: 'Your new key: script' });
    await waitFor(() =>
      expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Copy' })),
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    const status = within(dialog).getByRole('status');
    expect(status.textContent).toBe(
      'The key has not been copied yet. Press Done again to close without it.',
    );
    expect(status.classList.contains('warning')).toBe(true);
    expect(screen.getByRole('dialog')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('a key without a last day works until revoked; a refusal keeps what was typed', async () => {
    const fake = service([]);
    renderInSession(<ApiKeysPage />, testSession(fake));
    await screen.findByText('You have no API keys.');
    const form = screen.getByRole('heading', { name: 'Create a key' }).closest('form')!;
    fireEvent.input(within(form).getByLabelText('Name'), { target: { value: 'taken' } });
    fireEvent.submit(form);
    await waitFor(() =>
      expect(screen.getAllByRole('alert').find((a) => !a.hidden)?.textContent).toMatch(
        /^The key was not created: /,
      ),
    );
    expect(fake.auth.PostApiKey).toHaveBeenCalledWith(
      { body: { name: 'taken' } },
      expect.anything(),
    );
    expect((within(form).getByLabelText('Name') as HTMLInputElement).value).toBe('taken');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('revokes a key only after a confirmation', async () => {
    const fake = service([key('reports'), key('backup')]);
    renderInSession(<ApiKeysPage />, testSession(fake));
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke: reports' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.auth.DeleteApiKey).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Revoke: reports' }));
    const dialog = screen.getByRole('dialog', { name: 'Revoke the key reports?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke key' }));
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe('The key reports was revoked.'),
    );
    expect(await screen.findByRole('table', { name: '1 key' })).toBeTruthy();
    expect(screen.queryByRole('row', { name: /^reports/ })).toBeNull();
  });

  it('speaks Chinese', async () => {
    setLocale('zh');
    renderInSession(<ApiKeysPage />, testSession(service([key('报表')])));
    expect(screen.getByRole('heading', { level: 1, name: '我的 API 密钥' })).toBeTruthy();
    expect(await screen.findByRole('table', { name: '共 1 个密钥' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '撤销：报表' })).toBeTruthy();
    expect(screen.getByText('撤销前一直有效')).toBeTruthy();
  });
});
