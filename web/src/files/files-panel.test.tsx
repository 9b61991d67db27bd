import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Collection, KnowledgeFile } from '../api/services';
import { SHARED_COLLECTION_ID } from '../collection-access';
import { createCollectionStore } from '../collection-store';
import { setLocale } from '../i18n/locale';
import { createKnowledgeStore } from '../knowledge-store';
import { openMenu } from '../testing/menu';
import { ME, renderInSession, testSession, type TestSession } from '../testing/session';
import { FilesPanel } from './files-panel';
import { fakeGetFiles } from './fake-files';
import { SEARCH_DELAY_MS } from './files-toolbar';
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
  const asked: unknown[] = [];
  const session: TestSession = testSession({
    knowledge: {
      GetCollections: async () => [SHARED],
      GetList: async ({ file_id }: { file_id?: string }) =>
        file_id ? listed.filter((f) => file_id.split(',').includes(f.id)) : listed,
      GetFiles: fakeGetFiles(listed, asked),
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
  return { store, listed, asked, uploads };
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
    await screen.findByRole('checkbox', { name: 'plan.pdf' });
    const more = screen.getByRole('button', { name: 'More actions for plan.pdf' });
    const remove = within(openMenu('More actions for plan.pdf')).getByRole('menuitem', {
      name: 'Delete plan.pdf',
    });

    fireEvent.click(remove);
    fireEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }),
    );
    expect((await screen.findByText(/plan\.pdf could not be deleted/)).className).toContain(
      'action-notice',
    );
    // Choosing it closed the menu; the dialog gave the focus back to the menu's button.
    expect(more.getAttribute('aria-expanded')).toBe('false');
    await waitFor(() => expect(document.activeElement).toBe(more));

    fireEvent.click(more);
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

/** `count` ready files named file-001.pdf … (oldest first), each a day after the last. */
const many = (count: number) =>
  Array.from({ length: count }, (_, i) =>
    file(`file-${String(i + 1).padStart(3, '0')}.pdf`, {
      created_at: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
      size: 1000 + i,
    }),
  );

const names = () =>
  [...document.querySelectorAll('.file-list .file-name')].map((label) => label.textContent);

describe('the files panel with hundreds of files', () => {
  beforeEach(() => setLocale('en'));

  it('shows a page at a time, newest first, and pages on; the dropzone folds to a button', async () => {
    await showPanel(many(60));
    await screen.findByRole('checkbox', { name: 'file-060.pdf' });
    expect(names()).toHaveLength(25);
    expect(names()[0]).toBe('file-060.pdf');
    expect(screen.getByText('60 files')).toBeTruthy();
    expect(screen.queryByText('Drop documents here')).toBeNull();
    expect(screen.getByRole('button', { name: 'Choose documents…' })).toBeTruthy();

    const pager = screen.getByRole('navigation', { name: 'Pages of files' });
    expect(within(pager).getByText('Page 1 of 3')).toBeTruthy();
    fireEvent.click(within(pager).getByRole('button', { name: 'Next' }));
    await screen.findByRole('checkbox', { name: 'file-035.pdf' });
    expect(names()[0]).toBe('file-035.pdf');
  });

  it('opens the dropzone for an empty collection, and while files are dragged over the panel', async () => {
    await showPanel([]);
    expect(await screen.findByText('Drop documents here')).toBeTruthy();
    expect(screen.getByText('No documents yet')).toBeTruthy();
    expect(screen.queryByRole('search')).toBeNull();
  });

  it('searches by name after typing pauses, sorts and filters by status with its counts', async () => {
    const files = [
      ...many(30),
      file('Budget 2026.pdf', {
        status: 'failed',
        error: { code: 'model_unavailable', message: 'x' },
      }),
    ];
    const { asked } = await showPanel(files);
    await screen.findByRole('checkbox', { name: 'file-030.pdf' });

    const search = screen.getByRole('searchbox', { name: 'Search' });
    const before = asked.length;
    fireEvent.input(search, { target: { value: 'budg' } });
    fireEvent.input(search, { target: { value: 'budget' } });
    expect(asked.length).toBe(before); // not per key
    await waitFor(() => expect(names()).toEqual(['Budget 2026.pdf']), {
      timeout: SEARCH_DELAY_MS + 1000,
    });
    expect(asked.length).toBe(before + 1);
    expect(screen.getByText('1 file found')).toBeTruthy();

    fireEvent.input(search, { target: { value: 'nothing like it' } });
    const clear = await screen.findByRole('button', { name: 'Clear search and filters' });
    expect(screen.getByText('No files match')).toBeTruthy();
    fireEvent.click(clear);
    await waitFor(() => expect(names()).toHaveLength(25));
    await waitFor(() => expect(search).toHaveProperty('value', ''));

    const status = screen.getByRole('combobox', { name: 'Status' });
    expect(within(status).getByRole('option', { name: 'All (31)' })).toBeTruthy();
    expect(within(status).getByRole('option', { name: 'Ready (30)' })).toBeTruthy();
    fireEvent.change(status, { target: { value: 'failed' } });
    await waitFor(() => expect(names()).toEqual(['Budget 2026.pdf']));
    // A transient failure (the model endpoint was down) may pass on another try.
    expect(screen.getByRole('button', { name: 'Retry Budget 2026.pdf' })).toBeTruthy();

    fireEvent.change(status, { target: { value: '' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Sort' }), {
      target: { value: 'name:asc' },
    });
    await waitFor(() => expect(names()[0]).toBe('Budget 2026.pdf'));
    expect(names()[1]).toBe('file-001.pdf');
  });

  it('keeps files selected for questions across pages', async () => {
    const { store } = await showPanel(many(30));
    fireEvent.click(await screen.findByRole('checkbox', { name: 'file-030.pdf' }));
    await waitFor(() => expect(store.selected.has(store.files![0]!.id)).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('checkbox', { name: 'file-005.pdf' });
    expect(store.selectedFiles().map((f) => f.name)).toEqual(['file-030.pdf']);
    expect(screen.getByText(/^1 file selected/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await screen.findByRole('checkbox', { name: 'file-030.pdf' })).toHaveProperty(
      'checked',
      true,
    );
  });

  it('offers no Retry for a document that cannot be read, and says why', async () => {
    await showPanel([
      file('locked.pdf', {
        status: 'failed',
        error: { code: 'document_encrypted', message: 'encrypted' },
      }),
    ]);
    await screen.findByRole('checkbox', { name: 'locked.pdf' });
    expect(screen.queryByRole('button', { name: 'Retry locked.pdf' })).toBeNull();
    expect(screen.getByText(/Retrying would not help/)).toBeTruthy();
  });

  it('switches a file off: a badge, a note, not selectable, and on again', async () => {
    const plan = file('plan.pdf');
    const PutFileEnabled = vi.fn(async ({ body }: { body: { enabled: boolean } }) => ({
      ...plan,
      enabled: body.enabled,
    }));
    const { store } = await showPanel([plan], { PutFileEnabled });
    const box = await screen.findByRole('checkbox', { name: 'plan.pdf' });
    fireEvent.click(box);
    await waitFor(() => expect(store.selectedFiles()).toHaveLength(1));
    expect(screen.getByRole('link', { name: 'Chunks of plan.pdf' }).getAttribute('href')).toBe(
      `#/chunks/${plan.id}`,
    );

    fireEvent.click(
      within(openMenu('More actions for plan.pdf')).getByRole('menuitem', {
        name: 'Switch off plan.pdf',
      }),
    );
    await screen.findByText('Off');
    expect(PutFileEnabled).toHaveBeenCalledWith(
      { body: { id: plan.id, enabled: false } },
      expect.anything(),
    );
    expect(box).toHaveProperty('disabled', true);
    expect(store.selectedFiles()).toHaveLength(0);
    expect(screen.getByText(/Switched off: it is not searched/)).toBeTruthy();

    setLocale('zh');
    expect(await screen.findByText('已停用')).toBeTruthy();
    fireEvent.click(
      within(openMenu('更多操作：plan.pdf')).getByRole('menuitem', { name: '启用 plan.pdf' }),
    );
    await waitFor(() => expect(box).toHaveProperty('disabled', false));
  });

  it('shows a file on its way once: its upload row until it is listed, then its file row', async () => {
    const stored = file('new.pdf', {
      status: 'processing',
      pages: 12,
      pages_done: 12,
      chunks: 480,
      chunks_done: 120,
    });
    let release: () => void = () => {};
    const upload = vi.fn(
      () =>
        new Promise((resolve) => {
          release = () =>
            resolve({
              id: stored.id,
              name: 'new.pdf',
              status: 'processing',
              pages: 0,
              chunks: 0,
              duplicate: false,
            });
        }),
    );
    const session = await showPanelWithUpload([file('old.pdf')], upload);
    session.uploads.enqueue([new File(['%PDF-1.4'], 'new.pdf', { type: 'application/pdf' })]);
    const copies = () => screen.queryAllByText('new.pdf', { selector: '.upload-name, .file-name' });
    await waitFor(() => expect(copies()).toHaveLength(1));
    expect(copies()[0]!.className).toBe('upload-name');

    session.listed.unshift(stored);
    release();
    await waitFor(() => expect(screen.queryByRole('checkbox', { name: 'new.pdf' })).toBeTruthy());
    const visible = copies().filter((element) => !element.closest('[hidden]'));
    expect(visible).toHaveLength(1);
    expect(visible[0]!.className).toBe('file-name');
    expect(screen.getAllByText('Indexing: 120 of 480 passages').length).toBeGreaterThan(0);
    setLocale('zh');
    expect((await screen.findAllByText('正在建立索引：120/480 个片段')).length).toBeGreaterThan(0);
  });
});

async function showPanelWithUpload(files: KnowledgeFile[], upload: () => Promise<unknown>) {
  const listed = [...files];
  const session: TestSession = testSession({
    knowledge: {
      GetCollections: async () => [SHARED],
      GetList: async ({ file_id }: { file_id?: string }) =>
        file_id ? listed.filter((f) => file_id.split(',').includes(f.id)) : listed,
      GetFiles: fakeGetFiles(listed),
    },
    upload: upload as never,
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
  return { store, listed, uploads };
}
