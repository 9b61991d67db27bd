import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it } from 'vitest';
import { t } from '../i18n/bind';
import { setLocale } from '../i18n/locale';
import { versionsDialog, type FileVersion, type VersionsDialogDeps } from './versions-dialog';

// The Versions dialog: the history newest first with the current version marked, Download for
// every version, Restore for an older ready one (managers only, not while one is on its way).

const V1 = crypto.randomUUID();
const V2 = crypto.randomUUID();
const V3 = crypto.randomUUID();

const version = (id: string, n: number, extra: Partial<FileVersion> = {}): FileVersion => ({
  id,
  name: `rules-v${n}.pdf`,
  size: 2048 * n,
  status: 'ready',
  uploader: { id: crypto.randomUUID(), username: 'alice' },
  created_at: `2026-0${n}-01T08:00:00.000Z`,
  version: n,
  current: false,
  superseded_at: '2026-05-01T08:00:00.000Z',
  ...extra,
});

/** A history kept like the service keeps it: restore makes one current, the rest not. */
function history(initial: FileVersion[], canManage = true) {
  let versions = initial;
  const calls = { restored: [] as string[], downloaded: [] as string[] };
  const deps: VersionsDialogDeps = {
    load: () => Promise.resolve(versions),
    restore(target) {
      calls.restored.push(target.id);
      versions = versions.map((v) => ({
        ...v,
        current: v.id === target.id,
        superseded_at: v.id === target.id ? null : (v.superseded_at ?? '2026-06-01T08:00:00.000Z'),
      }));
      return Promise.resolve();
    },
    download(target) {
      calls.downloaded.push(target.id);
      return Promise.resolve();
    },
    canManage,
    reason: () => t((m) => m.errors.network),
  };
  return { deps, calls };
}

const rows = () => within(screen.getByRole('dialog')).getAllByRole('listitem');

describe('the Versions dialog', () => {
  beforeEach(() => setLocale('en'));

  it('lists the versions newest first, marks the current one, and restores an older one', async () => {
    const { deps, calls } = history([
      version(V2, 2, { current: true, superseded_at: null }),
      version(V1, 1),
    ]);
    const closed = versionsDialog('rules.pdf', deps);
    expect(screen.getByRole('dialog', { name: 'Versions of rules.pdf' })).toBeTruthy();
    await waitFor(() => expect(rows()).toHaveLength(2));
    const [newest, oldest] = rows();
    expect(newest!.textContent).toContain('Version 2');
    expect(newest!.textContent).toContain('Current');
    expect(within(newest!).queryByRole('button', { name: /^Restore/ })).toBeNull();
    expect(oldest!.textContent).toContain('Version 1');
    expect(oldest!.textContent).toContain('Replaced');

    fireEvent.click(within(oldest!).getByRole('button', { name: 'Download version 1' }));
    expect(calls.downloaded).toEqual([V1]);

    fireEvent.click(
      within(oldest!).getByRole('button', { name: 'Restore this version: version 1' }),
    );
    await waitFor(() => expect(calls.restored).toEqual([V1]));
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('Version 1 is'));
    // Now version 1 is current, and version 2 is the one to restore.
    const [second, first] = rows();
    expect(first!.textContent).toContain('Current');
    expect(within(second!).getByRole('button', { name: /^Restore this version/ })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(await closed).toBe(true);
  });

  it('offers no restore to readers, nor while a new version is on its way', async () => {
    const reader = history(
      [version(V2, 2, { current: true, superseded_at: null }), version(V1, 1)],
      false,
    );
    const closed = versionsDialog('rules.pdf', reader.deps);
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(screen.queryByRole('button', { name: /^Restore/ })).toBeNull();
    expect(screen.getAllByRole('button', { name: /^Download version/ })).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(await closed).toBe(false);

    const busy = history([
      version(V3, 3, { status: 'processing', superseded_at: null }),
      version(V2, 2, { current: true, superseded_at: null }),
      version(V1, 1),
    ]);
    const again = versionsDialog('rules.pdf', busy.deps);
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(rows()[0]!.textContent).toContain('On its way');
    expect(screen.queryByRole('button', { name: /^Restore/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(await again).toBe(false);
  });

  it('speaks Chinese', async () => {
    setLocale('zh');
    const { deps } = history([
      version(V2, 2, { current: true, superseded_at: null }),
      version(V1, 1),
    ]);
    const closed = versionsDialog('办法.pdf', deps);
    expect(screen.getByRole('dialog', { name: '办法.pdf 的版本历史' })).toBeTruthy();
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(rows()[0]!.textContent).toContain('当前版本');
    expect(screen.getByRole('button', { name: '恢复此版本：第 1 版' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '关闭' }));
    await closed;
  });
});
