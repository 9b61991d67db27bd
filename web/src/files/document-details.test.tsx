import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Collection, KnowledgeFile } from '../api/services';
import { SHARED_COLLECTION_ID } from '../collection-access';
import { createCollectionStore } from '../collection-store';
import { setLocale } from '../i18n/locale';
import { createKnowledgeStore } from '../knowledge-store';
import { fakeGetFiles } from './fake-files';
import { openMenu } from '../testing/menu';
import { ME, renderInSession, testSession } from '../testing/session';
import { FilesPanel } from './files-panel';
import { createUploadQueue } from './upload-queue';

// A file row's document details (文号 · issuers · date), its validity badge, and Edit details.

const SHARED: Collection = {
  id: SHARED_COLLECTION_ID,
  name: 'shared',
  description: '',
  shared: true,
  role: 'owner',
  files: 2,
  created_at: '2026-01-01T00:00:00.000Z',
};

const OLD_ID = crypto.randomUUID();
const NEW_ID = crypto.randomUUID();

const metadata = (extra: Partial<NonNullable<KnowledgeFile['metadata']>> = {}) => ({
  title: null,
  doc_number: null,
  issuers: [],
  issued_on: null,
  effective_on: null,
  expires_on: null,
  doc_type: null,
  origin: {},
  ...extra,
});

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
  ...extra,
});

const OLD = file(OLD_ID, 'old.pdf', {
  metadata: metadata({
    title: '青禾市人民政府办公室关于印发青禾市创业担保贷款实施办法的通知',
    doc_number: '青政办发〔2024〕17号',
    issuers: ['青禾市人民政府办公室'],
    issued_on: '2024-02-06',
    doc_type: '通知',
    origin: { title: 'extracted', doc_number: 'extracted', issuers: 'extracted' },
  }),
  validity: {
    status: 'repealed',
    relations: [
      {
        id: 7,
        relation: 'repealed_by',
        file_id: NEW_ID,
        file_name: 'new.pdf',
        doc_number: '青政办发〔2025〕9号',
        title: null,
        origin: 'extracted',
      },
    ],
  },
});

const NEW = file(NEW_ID, 'new.pdf', {
  metadata: metadata({ doc_number: '青政办发〔2025〕9号', issued_on: '2025-06-10' }),
  validity: {
    status: 'in_force',
    relations: [
      {
        id: 7,
        relation: 'repeals',
        file_id: OLD_ID,
        file_name: 'old.pdf',
        doc_number: '青政办发〔2024〕17号',
        title: '青禾市创业担保贷款实施办法',
        origin: 'extracted',
      },
    ],
  },
});

async function showPanel(files: KnowledgeFile[], knowledge: Record<string, unknown> = {}) {
  const session = testSession({
    knowledge: {
      GetCollections: async () => [SHARED],
      GetList: async () => files,
      GetFiles: fakeGetFiles(files),
      ...knowledge,
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
}

const rowOf = (name: string) => screen.getByRole('checkbox', { name }).closest('li') as HTMLElement;

describe('a file’s document details', () => {
  beforeEach(() => setLocale('en'));

  it('shows 文号 · issuer · date, and a repealed document says by which', async () => {
    await showPanel([NEW, OLD]);
    await screen.findByRole('checkbox', { name: 'old.pdf' });
    const old = rowOf('old.pdf');
    expect(
      within(old).getByText('青政办发〔2024〕17号 · 青禾市人民政府办公室 · February 6, 2024'),
    ).toBeTruthy();
    expect(within(old).getByText('Repealed')).toBeTruthy();
    expect(within(old).getByText('Repealed by 青政办发〔2025〕9号')).toBeTruthy();
    // A document in force has no badge.
    expect(within(rowOf('new.pdf')).queryByText(/Repealed|Amended|Expired/)).toBeNull();

    setLocale('zh');
    expect(await within(old).findByText('已废止')).toBeTruthy();
    expect(within(old).getByText('已被 青政办发〔2025〕9号 废止')).toBeTruthy();
  });

  it('a document replaced by another says 已被替代, naming it', async () => {
    const replaced = file(crypto.randomUUID(), 'replaced.pdf', {
      metadata: metadata({ doc_number: '青政办发〔2020〕2号' }),
      validity: {
        status: 'repealed',
        relations: [{ ...OLD.validity!.relations[0]!, relation: 'replaced_by' }],
      },
    });
    await showPanel([replaced]);
    await screen.findByRole('checkbox', { name: 'replaced.pdf' });
    const row = rowOf('replaced.pdf');
    expect(within(row).getByText('Replaced')).toBeTruthy();
    expect(within(row).getByText('Replaced by 青政办发〔2025〕9号')).toBeTruthy();
    setLocale('zh');
    expect(await within(row).findByText('已被替代')).toBeTruthy();
    expect(within(row).getByText('已被 青政办发〔2025〕9号 替代')).toBeTruthy();
  });

  it('an expired document says since when', async () => {
    await showPanel([
      file(crypto.randomUUID(), 'old-rules.pdf', {
        metadata: metadata({ doc_number: '青政发〔2015〕3号', expires_on: '2020-12-31' }),
        validity: { status: 'expired', relations: [] },
      }),
    ]);
    await screen.findByRole('checkbox', { name: 'old-rules.pdf' });
    const row = rowOf('old-rules.pdf');
    expect(within(row).getByText('Expired')).toBeTruthy();
    expect(within(row).getByText('Expired on December 31, 2020')).toBeTruthy();
  });

  it('Edit details adds a relation by number and shows it at once', async () => {
    const PostFileRelation = vi.fn(async ({ body }: { body: Record<string, string> }) => ({
      ...NEW,
      validity: {
        status: 'in_force',
        relations: [
          ...NEW.validity!.relations,
          {
            id: 8,
            relation: body.relation,
            file_id: null,
            file_name: null,
            doc_number: body.doc_number,
            title: null,
            origin: 'person',
          },
        ],
      },
    }));
    await showPanel([NEW, OLD], { PostFileRelation });
    await screen.findByRole('checkbox', { name: 'new.pdf' });
    fireEvent.click(
      within(openMenu('More actions for new.pdf')).getByRole('menuitem', {
        name: 'Edit details: new.pdf',
      }),
    );
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add a relation' }));
    expect(
      await within(dialog).findByText('Give the other document’s number or its title.'),
    ).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('This document…'), {
      target: { value: 'amends' },
    });
    fireEvent.input(within(dialog).getByLabelText('Other document’s number'), {
      target: { value: '青政发［2020］1号' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add a relation' }));
    expect(await within(dialog).findByText('Amends 青政发［2020］1号')).toBeTruthy();
    expect(PostFileRelation).toHaveBeenCalledWith(
      { body: { file_id: NEW_ID, relation: 'amends', doc_number: '青政发［2020］1号' } },
      expect.anything(),
    );
  });

  it('Edit details lists what other documents say of this one, to be changed there', async () => {
    await showPanel([NEW, OLD]);
    await screen.findByRole('checkbox', { name: 'old.pdf' });
    fireEvent.click(
      within(openMenu('More actions for old.pdf')).getByRole('menuitem', {
        name: 'Edit details: old.pdf',
      }),
    );
    const dialog = await screen.findByRole('dialog');
    const stated = within(dialog).getByText('Repealed by 青政办发〔2025〕9号').closest('li')!;
    expect(
      within(stated).getByText('(stated by the other document; change it there)'),
    ).toBeTruthy();
    expect(within(stated).queryByRole('button')).toBeNull();
    expect(within(dialog).queryByText('None known.')).toBeNull();
    // Its own relations can still be added.
    expect(within(dialog).getByRole('button', { name: 'Add a relation' })).toBeTruthy();

    setLocale('zh');
    expect(await within(dialog).findByText('(由其他文件声明，在该文件中修改)')).toBeTruthy();
  });

  it('says nothing for a document that says nothing of itself', async () => {
    await showPanel([file(crypto.randomUUID(), 'notes.txt', { metadata: metadata() })]);
    await screen.findByRole('checkbox', { name: 'notes.txt' });
    expect(rowOf('notes.txt').querySelector('.file-document')).toBeNull();
  });

  it('Edit details saves only the fields changed, and removes a relation', async () => {
    const PutFileMetadata = vi.fn(async ({ body }: { body: Record<string, unknown> }) => ({
      ...NEW,
      metadata: { ...NEW.metadata!, ...body, origin: { issued_on: 'person' } },
    }));
    let removed = false;
    const DeleteFileRelation = vi.fn(async () => {
      removed = true;
    });
    const GetList = vi.fn(async () =>
      removed ? [{ ...NEW, validity: { status: 'in_force', relations: [] } }, OLD] : [NEW, OLD],
    );
    await showPanel([NEW, OLD], { PutFileMetadata, DeleteFileRelation, GetList });

    await screen.findByRole('checkbox', { name: 'new.pdf' });
    fireEvent.click(
      within(openMenu('More actions for new.pdf')).getByRole('menuitem', {
        name: 'Edit details: new.pdf',
      }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Repeals 青政办发〔2024〕17号')).toBeTruthy();
    fireEvent.click(
      within(dialog).getByRole('button', {
        name: 'Remove the relation: Repeals 青政办发〔2024〕17号',
      }),
    );
    await waitFor(() =>
      expect(DeleteFileRelation).toHaveBeenCalledWith({ id: 7 }, expect.anything()),
    );
    expect(await within(dialog).findByText('None known.')).toBeTruthy();

    fireEvent.input(within(dialog).getByLabelText('Date of issue'), {
      target: { value: '2025-06-11' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save details' }));
    await waitFor(() => expect(PutFileMetadata).toHaveBeenCalledTimes(1));
    expect(PutFileMetadata.mock.calls[0]![0]).toEqual({
      body: { id: NEW_ID, issued_on: '2025-06-11' },
    });
    expect(await screen.findByText('The details of new.pdf were saved.')).toBeTruthy();
  });
});
