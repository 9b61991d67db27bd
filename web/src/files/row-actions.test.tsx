import { fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { KnowledgeFile } from '../api/services';
import { setLocale } from '../i18n/locale';
import { openMenu } from '../testing/menu';
import { Session } from '../context';
import { ME, testSession } from '../testing/session';
import { FileRow, type FileRowActions } from './file-row';

const file = (status: KnowledgeFile['status'], extra: Partial<KnowledgeFile> = {}) =>
  ({
    id: crypto.randomUUID(),
    name: 'plan.pdf',
    status,
    pages: 3,
    pages_done: 3,
    chunks: 7,
    chunks_done: 7,
    collection: { id: crypto.randomUUID(), name: 'shared' },
    size: 2048,
    format: 'pdf',
    uploader: { id: ME.id, username: ME.username },
    created_at: '2026-02-03T04:05:06.000Z',
    replaces: null,
    ...extra,
  }) as KnowledgeFile;

const noop = async () => {};
const actions = (): FileRowActions => ({
  select: () => {},
  remove: noop,
  retry: noop,
  move: noop,
  editDetails: noop,
  switchFile: noop,
  uploadVersion: noop,
  showVersions: noop,
});

function show(shown: KnowledgeFile, canManage = true, given = actions()) {
  const session = testSession();
  const view = (f: KnowledgeFile) => (
    <Session.Provider value={session}>
      <ul>
        <FileRow file={f} selected={false} canManage={canManage} actions={given} />
      </ul>
    </Session.Provider>
  );
  const { rerender } = render(view(shown));
  return { rerender: (next: KnowledgeFile) => rerender(view(next)) };
}

/** The row's own buttons and links, as seen without opening its menu. */
const inRow = () =>
  [...document.querySelectorAll<HTMLElement>('.file-actions > .button, .more-button')]
    .filter((action) => !action.hidden)
    .map((action) => action.textContent);

const itemsOf = (menu: HTMLElement) =>
  within(menu)
    .getAllByRole('menuitem')
    .map((item) => item.textContent);

describe('a file row’s actions', () => {
  beforeEach(() => setLocale('en'));

  it('a ready file: Download and Chunks in the row, the other six under More', () => {
    show(file('ready'));
    expect(inRow()).toEqual(['Download', 'Chunks', 'More…']);
    const more = screen.getByRole('button', { name: 'More actions for plan.pdf' });
    expect(more.getAttribute('aria-haspopup')).toBe('menu');
    expect(itemsOf(openMenu('More actions for plan.pdf'))).toEqual([
      'Versions',
      'Upload new version',
      'Switch off',
      'Edit details',
      'Move…',
      'Delete',
    ]);
  });

  it('a failed file: Retry and Delete in the row; Download and the rest under More', () => {
    show(file('failed', { error: { code: 'model_unavailable', message: 'down' } }));
    expect(inRow()).toEqual(['Retry', 'Delete', 'More…']);
    expect(itemsOf(openMenu('More actions for plan.pdf'))).toEqual([
      'Download',
      'Versions',
      'Upload new version',
      'Move…',
    ]);
  });

  it('a file on its way: Download in the row; Versions, Move and Delete under More', () => {
    show(file('processing', { chunks_done: 2 }));
    expect(inRow()).toEqual(['Download', 'More…']);
    expect(itemsOf(openMenu('More actions for plan.pdf'))).toEqual(['Versions', 'Move…', 'Delete']);
  });

  it('a reader’s row shows its three actions, with no menu', () => {
    show(file('ready'), false);
    expect(inRow()).toEqual(['Download', 'Chunks', 'Versions']);
    expect(screen.queryByRole('button', { name: /^More/ })).toBeNull();
  });

  it('in Chinese, the menu is 更多', () => {
    setLocale('zh');
    show(file('ready'));
    expect(screen.getByRole('button', { name: '更多操作：plan.pdf' }).textContent).toBe('更多');
  });

  it('gives the focus to More when Retry goes away, the retry under way', async () => {
    const given = actions();
    given.retry = vi.fn(async () => {});
    const failed = file('failed', { error: { code: 'model_unavailable', message: 'down' } });
    const { rerender } = show(failed, true, given);
    const retry = screen.getByRole('button', { name: 'Retry plan.pdf' });
    retry.focus();
    fireEvent.click(retry);
    await waitFor(() => expect(given.retry).toHaveBeenCalledOnce());
    rerender({ ...failed, status: 'queued', error: undefined });
    expect(document.activeElement).toBe(
      screen.getByRole('button', { name: 'More actions for plan.pdf' }),
    );
    expect(inRow()).toEqual(['Download', 'More…']);
  });
});
