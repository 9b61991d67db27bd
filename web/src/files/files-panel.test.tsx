import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Collection, KnowledgeFile } from '../api/services';
import { SHARED_COLLECTION_ID } from '../collection-access';
import { createCollectionStore } from '../collection-store';
import { setLocale } from '../i18n/locale';
import { createKnowledgeStore } from '../knowledge-store';
import { ME, renderInSession, testSession, type TestSession } from '../testing/session';
import { FilesPanel } from './files-panel';
import { createUploadQueue } from './upload-queue';

const SHARED: Collection = {
  id: SHARED_COLLECTION_ID,
  name: 'shared',
  description: '',
  shared: true,
  role: 'owner',
  files: 2,
  created_at: '2026-01-01T00:00:00.000Z',
};

const file = (name: string, extra: Partial<KnowledgeFile> = {}): KnowledgeFile => ({
  id: crypto.randomUUID(),
  name,
  status: 'ready',
  pages: 3,
  pages_done: 3,
  chunks: 7,
  chunks_done: 7,
  collection: { id: SHARED.id, name: SHARED.name },
  size: 2048,
  format: 'pdf',
  uploader: { id: ME.id, username: ME.username },
  created_at: '2026-02-03T04:05:06.000Z',
  ...extra,
});

/** The panel on a session whose knowledge service holds `files`. */
async function showPanel(files: KnowledgeFile[], knowledge: Record<string, unknown> = {}) {
  const listed = [...files];
  const session: TestSession = testSession({
    knowledge: {
      GetCollections: async () => [SHARED],
      GetList: async () => listed,
      ...knowledge,
    },
  });
  const collections = createCollectionStore(session);
  const store = createKnowledgeStore(session, collections);
  const uploads = createUploadQueue(session, store);
  renderInSession(
    <FilesPanel store={store} collections={collections} uploads={uploads} />,
    session,
  );
  await collections.refresh();
  await store.refresh();
  return { store, listed };
}

describe('the files panel', () => {
  beforeEach(() => setLocale('en'));

  it('lists the files; ticking a ready one selects it, one on its way cannot be ticked', async () => {
    const { store } = await showPanel([
      file('plan.pdf'),
      file('notes.pdf', { status: 'processing', pages_done: 1, chunks: 0, chunks_done: 0 }),
    ]);
    const plan = await screen.findByRole('checkbox', { name: 'plan.pdf' });
    const notes = screen.getByRole('checkbox', { name: 'notes.pdf' });
    expect(notes).toHaveProperty('disabled', true);
    expect(screen.getByRole('progressbar', { name: 'Processing notes.pdf' })).toBeTruthy();

    fireEvent.click(plan);
    await waitFor(() => expect(plan).toHaveProperty('checked', true));
    expect(store.selectedFiles().map((f) => f.name)).toEqual(['plan.pdf']);
    expect(screen.getByText(/^1 file selected/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Clear selection' }));
    await waitFor(() => expect(plan).toHaveProperty('checked', false));
  });

  it('deletes a file once confirmed and says so; a refusal is shown in words', async () => {
    const DeleteFile = vi
      .fn()
      .mockRejectedValueOnce(Object.assign(new Error('refused'), { name: 'TypeError' }))
      .mockResolvedValueOnce(undefined);
    await showPanel([file('plan.pdf')], { DeleteFile });
    const remove = await screen.findByRole('button', { name: 'Delete plan.pdf' });

    fireEvent.click(remove);
    fireEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }),
    );
    expect((await screen.findByText(/plan\.pdf could not be deleted/)).className).toContain(
      'action-notice',
    );

    fireEvent.click(remove);
    fireEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }),
    );
    await waitFor(() => expect(screen.queryByRole('checkbox', { name: 'plan.pdf' })).toBeNull());
    expect(DeleteFile).toHaveBeenCalledTimes(2);
    expect(screen.getByText('plan.pdf was deleted.').getAttribute('role')).toBe('status');
  });

  it('shows why a failed file failed, with Retry, and no Retry for a ready one', async () => {
    await showPanel([
      file('broken.pdf', {
        status: 'failed',
        error: { code: 'document_unreadable', message: 'unreadable' },
      }),
      file('fine.pdf'),
    ]);
    expect(await screen.findByRole('button', { name: 'Retry broken.pdf' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Retry fine.pdf' })).toBeNull();
  });

  it('says while OCR reads scanned pages, and once ready, how much of the text OCR read', async () => {
    await showPanel([
      file('scan.pdf', {
        status: 'processing',
        pages: 10,
        pages_done: 10,
        chunks: 0,
        chunks_done: 0,
        ocr: { pages: 10, pages_done: 3, confidence: null },
      }),
      file('notice.pdf', {
        ocr: { pages: 2, pages_done: 2, confidence: 0.97 },
        repaired_pages: 1,
      }),
    ]);
    const bar = await screen.findByRole('progressbar', { name: 'Processing scan.pdf' });
    expect(bar.getAttribute('aria-valuenow')).toBe('15');
    expect(screen.getAllByText('Reading scanned pages (OCR): 3 of 10').length).toBeGreaterThan(0);
    expect(
      screen.getByText(/2 pages read by OCR \(confidence 97%\): check quotes against the original/),
    ).toBeTruthy();
    expect(screen.getByText(/Broken characters repaired on 1 page\./)).toBeTruthy();

    setLocale('zh');
    expect(await screen.findByText(/2 页为 OCR 识别（置信度 97%）/)).toBeTruthy();
  });
});
