import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Collection, KnowledgeFile } from '../api/services';
import { setLocale } from '../i18n/locale';
import { ME, refusal, renderInSession, testSession } from '../testing/session';
import type { FileChunk } from './chunk-types';
import { ChunksPage } from './chunks-page';

const COLLECTION: Collection = {
  id: '22222222-2222-4222-8222-222222222222',
  name: 'Rules',
  description: '',
  shared: false,
  role: 'editor',
  files: 1,
  created_at: '2026-01-01T00:00:00.000Z',
};

const FILE: KnowledgeFile = {
  id: '33333333-3333-4333-8333-333333333333',
  name: 'leave.pdf',
  status: 'ready',
  pages: 2,
  pages_done: 2,
  chunks: 2,
  chunks_done: 2,
  collection: { id: COLLECTION.id, name: COLLECTION.name },
  size: 2048,
  format: 'pdf',
  uploader: { id: ME.id, username: ME.username },
  created_at: '2026-02-03T04:05:06.000Z',
  enabled: true,
};

const chunk = (index: number, extra: Partial<FileChunk> = {}): FileChunk => ({
  id: 100 + index,
  index,
  page: index + 1,
  section: null,
  heading_path: index === 1 ? 'Chapter 2 › Article 5' : null,
  text: `Passage ${index + 1} of the rules.`,
  text_source: index === 1 ? 'ocr' : 'text_layer',
  enabled: true,
  edited_by: null,
  edited_at: null,
  original_text: null,
  embedding_model: 'offline@256',
  ...extra,
});

function show(knowledge: Record<string, unknown>, role: Collection['role'] = 'editor') {
  const session = testSession({
    knowledge: {
      GetList: async () => [FILE],
      GetCollection: async () => ({ ...COLLECTION, role }),
      GetChunks: async ({ page }: { page: number }) => ({
        file_id: FILE.id,
        items: [chunk(0), chunk(1)],
        page,
        size: 20,
        total: 2,
      }),
      ...knowledge,
    },
  });
  renderInSession(<ChunksPage id={FILE.id} />, session);
  return session;
}

describe('the chunks screen', () => {
  beforeEach(() => setLocale('en'));

  it('lists the chunks in order with page, headings and text source; a reader only reads', async () => {
    show({}, 'viewer');
    expect(await screen.findByRole('heading', { name: 'Chunks of leave.pdf' })).toBeTruthy();
    const items = await screen.findAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[1]!.textContent).toContain('#2');
    expect(items[1]!.textContent).toContain('Page 2');
    expect(items[1]!.textContent).toContain('Chapter 2 › Article 5');
    expect(within(items[1]!).getByText('OCR')).toBeTruthy();
    expect(
      within(items[0]!)
        .getByRole('link', { name: 'Open in document: chunk #1' })
        .getAttribute('href'),
    ).toBe(`#/doc/${FILE.id}?page=1&chunk=100`);
    expect(screen.queryByRole('button', { name: 'Edit chunk #1' })).toBeNull();
    expect(screen.getByText(/only the file’s keepers may change them/)).toBeTruthy();
  });

  it('edits a chunk: the dialog saves the text, the chunk shows who edited it and the original', async () => {
    const PutChunk = vi
      .fn()
      .mockRejectedValueOnce(refusal(502, 'model_unavailable'))
      .mockImplementation(async ({ body }: { body: { id: number; text: string } }) =>
        chunk(0, {
          text: body.text,
          edited_by: 'ada',
          edited_at: '2026-03-01T10:00:00.000Z',
          original_text: 'Passage 1 of the rules.',
        }),
      );
    show({ PutChunk });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit chunk #1' }));
    const dialog = await screen.findByRole('dialog');
    const box = within(dialog).getByRole('textbox', { name: 'Text' });
    expect(box).toHaveProperty('value', 'Passage 1 of the rules.');
    fireEvent.input(box, { target: { value: 'Passage one, corrected.' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    // The model endpoint was down: said in the dialog, the text typed kept.
    expect(await within(dialog).findByText(/Chunk #1 was not changed/)).toBeTruthy();
    expect(box).toHaveProperty('value', 'Passage one, corrected.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(PutChunk).toHaveBeenLastCalledWith(
      { body: { id: 100, text: 'Passage one, corrected.' } },
      expect.anything(),
    );
    expect(await screen.findByText('Passage one, corrected.')).toBeTruthy();
    expect(screen.getByText(/^Edited by ada at /)).toBeTruthy();
    expect(screen.getByText('Original text')).toBeTruthy();
    expect(screen.getByText(/Chunk #1 saved/)).toBeTruthy();
  });

  it('switches a chunk off and on; in Chinese too', async () => {
    const PutChunk = vi.fn(async ({ body }: { body: { id: number; enabled: boolean } }) =>
      chunk(body.id - 100, { enabled: body.enabled }),
    );
    show({ PutChunk });
    fireEvent.click(await screen.findByRole('button', { name: 'Switch off chunk #2' }));
    expect(await screen.findByText('Off')).toBeTruthy();
    expect(PutChunk).toHaveBeenCalledWith({ body: { id: 101, enabled: false } }, expect.anything());
    setLocale('zh');
    fireEvent.click(await screen.findByRole('button', { name: '启用片段 #2' }));
    await waitFor(() => expect(screen.queryByText('已停用')).toBeNull());
    expect(screen.getByRole('heading', { name: '片段：leave.pdf' })).toBeTruthy();
  });

  it('says not found for a file the caller may not read', async () => {
    show({ GetList: async () => [] });
    expect(
      await screen.findByText('This file does not exist, or you may not read it.'),
    ).toBeTruthy();
  });
});
