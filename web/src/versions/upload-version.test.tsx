import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Collection, KnowledgeFile } from '../api/services';
import { SHARED_COLLECTION_ID } from '../collection-access';
import { createCollectionStore } from '../collection-store';
import { fakeGetFiles } from '../files/fake-files';
import { FilesPanel } from '../files/files-panel';
import { createUploadQueue } from '../files/upload-queue';
import { setLocale } from '../i18n/locale';
import { createKnowledgeStore } from '../knowledge-store';
import { openMenu } from '../testing/menu';
import { ME, refusal, renderInSession, testSession } from '../testing/session';

// "Upload new version" in a file's row: the file chosen is uploaded with `replaces`, the old
// row stays as it was and the new version's row says what it replaces; a refusal in words.

const SHARED: Collection = {
  id: SHARED_COLLECTION_ID,
  name: 'shared',
  description: '',
  shared: true,
  role: 'owner',
  files: 1,
  created_at: '2026-01-01T00:00:00.000Z',
};

const OLD_ID = crypto.randomUUID();
const NEW_ID = crypto.randomUUID();

const file = (id: string, name: string, extra: Partial<KnowledgeFile> = {}): KnowledgeFile => ({
  id,
  name,
  status: 'ready',
  pages: 2,
  pages_done: 2,
  chunks: 4,
  chunks_done: 4,
  collection: { id: SHARED.id, name: SHARED.name },
  size: 2048,
  format: 'pdf',
  uploader: { id: ME.id, username: ME.username },
  created_at: '2026-02-03T04:05:06.000Z',
  version: 1,
  replaces: null,
  ...extra,
});

const OLD = file(OLD_ID, 'rules.pdf');
const NEW = file(NEW_ID, 'rules-2026.pdf', {
  status: 'processing',
  chunks_done: 1,
  created_at: '2026-03-03T04:05:06.000Z',
  version: 2,
  replaces: { id: OLD_ID, name: 'rules.pdf' },
});

async function showPanel(Upload: (...args: never[]) => unknown) {
  let files: KnowledgeFile[] = [OLD];
  const session = testSession({
    knowledge: {
      GetCollections: async () => [SHARED],
      GetList: async () => files,
      GetFiles: (...args: Parameters<ReturnType<typeof fakeGetFiles>>) =>
        fakeGetFiles(files)(...args),
      Upload,
    },
  });
  const collections = createCollectionStore(session);
  const store = createKnowledgeStore(session, collections);
  renderInSession(
    <FilesPanel
      store={store}
      collections={collections}
      uploads={createUploadQueue(session, store)}
    />,
    session,
  );
  await collections.refresh();
  await store.refresh();
  await screen.findByRole('checkbox', { name: 'rules.pdf' });
  return { listNow: (next: KnowledgeFile[]) => (files = next) };
}

const rowOf = (name: string) => screen.getByRole('checkbox', { name }).closest('li') as HTMLElement;

function choose(row: HTMLElement, picked: File) {
  const input = row.querySelector<HTMLInputElement>('input[type="file"]')!;
  Object.defineProperty(input, 'files', { value: [picked], configurable: true });
  fireEvent.change(input);
}

describe('Upload new version', () => {
  beforeEach(() => setLocale('en'));

  it('uploads the file chosen with replaces; the old row stays, the new one says what it replaces', async () => {
    const list: { now?: { listNow(next: KnowledgeFile[]): void } } = {};
    const Upload = vi.fn(async () => {
      list.now!.listNow([NEW, OLD]);
      return {
        id: NEW_ID,
        name: NEW.name,
        status: 'queued',
        pages: 0,
        chunks: 0,
        duplicate: false,
      };
    });
    list.now = await showPanel(Upload);
    const old = rowOf('rules.pdf');
    expect(
      within(openMenu('More actions for rules.pdf', old)).getByRole('menuitem', {
        name: 'Upload new version of rules.pdf',
      }),
    ).toBeTruthy();
    const picked = new File(['%PDF-1.7'], 'rules-2026.pdf', { type: 'application/pdf' });
    choose(old, picked);
    await waitFor(() => expect(Upload).toHaveBeenCalledTimes(1));
    expect(Upload.mock.calls[0]).toEqual([
      { file: picked, replaces: OLD_ID },
      expect.objectContaining({ headers: { Prefer: 'respond-async' } }),
    ]);
    const added = await screen.findByRole('checkbox', { name: 'rules-2026.pdf' });
    const row = added.closest('li') as HTMLElement;
    expect(row.textContent).toContain('New version of rules.pdf on its way');
    // A version on its way is not given another; the old one stays as it was.
    const menu = openMenu('More actions for rules-2026.pdf', row);
    expect(within(menu).queryByRole('menuitem', { name: /^Upload new version/ })).toBeNull();
    expect((screen.getByRole('checkbox', { name: 'rules.pdf' }) as HTMLInputElement).disabled).toBe(
      false,
    );
  });

  it('says why a new version was refused, in the user’s language', async () => {
    setLocale('zh');
    const Upload = vi.fn(async () => {
      throw refusal(
        409,
        'version_on_its_way',
        'A new version of this file is still being processed.',
      );
    });
    await showPanel(Upload);
    choose(rowOf('rules.pdf'), new File(['x'], 'x.pdf'));
    expect(await screen.findByText(/rules\.pdf 的新版本未能上传/)).toBeTruthy();
  });
});
