import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Collection } from '../api/services';
import { setLocale } from '../i18n/locale';
import { refusal, renderInSession, testSession } from '../testing/session';
import { openOfficialAnswerDialog } from './official-answer-dialog';
import { OfficialSection } from './official-page';

const ID = '22222222-2222-4222-8222-222222222222';
const FILE = '33333333-3333-4333-8333-333333333333';
const collection = (role: Collection['role']): Collection =>
  ({ id: ID, name: 'Policies', description: '', role, shared: false, files: 2 }) as Collection;

const official = {
  id: '44444444-4444-4444-8444-444444444444',
  collection_id: ID,
  question: 'How long is annual leave?',
  answer: '25 working days; 30 after ten years.',
  citations: [
    {
      file_id: FILE,
      file_name: 'leave.pdf',
      collection_id: ID,
      collection_name: 'Policies',
      page: 2,
      section: null as string | null,
      heading_path: null,
      text_source: 'text_layer' as string | null,
      chunk_id: 12,
    },
  ],
  created_by: 'ada',
  updated_by: 'ada',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-02T00:00:00.000Z',
};

const hit = (id: number, page: number) => ({
  id,
  similarity: 0.7,
  content: `Passage ${id} on annual leave.`,
  file_id: FILE,
  file_name: 'leave.pdf',
  collection_id: ID,
  collection_name: 'Policies',
  page,
  section: null,
  text_source: 'text_layer',
  found_by: ['vector'],
  ranks: { vector: 1 },
});

function fakes() {
  return {
    chat: {
      GetOfficialAnswers: vi.fn(async () => [official]),
      GetAnswerSettings: vi.fn(async () => ({
        collection_id: ID,
        min_similarity: 0.5,
        official_threshold: 0.9,
      })),
      PutAnswerSettings: vi.fn(
        async ({ body }: { body: { collection_id: string; official_threshold: number } }) => ({
          ...body,
          min_similarity: 0.5,
        }),
      ),
      PostOfficialAnswer: vi.fn(async () => official),
      DeleteOfficialAnswer: vi.fn(async () => undefined),
    },
    knowledge: { GetQuery: vi.fn(async () => [hit(12, 2), hit(13, 3)]) },
  };
}

describe('the official answers screen', () => {
  beforeEach(() => setLocale('en'));

  it('shows a reader the answers and the threshold, with nothing to change', async () => {
    renderInSession(<OfficialSection collection={collection('viewer')} />, testSession(fakes()));
    await screen.findByRole('heading', { name: official.question });
    expect(screen.getByText(official.answer)).toBeTruthy();
    expect(screen.getByText(/leave\.pdf, page 2/)).toBeTruthy();
    expect(screen.getByText(/Similarity needed to answer as written: 0\.9/)).toBeTruthy();
    expect(
      screen.getByText('Only the owners of this collection can write official answers.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Edit/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Write an official answer' })).toBeNull();
  });

  it('lets an owner set the threshold and delete an answer after asking', async () => {
    const api = fakes();
    renderInSession(<OfficialSection collection={collection('owner')} />, testSession(api));
    const threshold = await screen.findByLabelText('Similarity needed to answer as written');
    fireEvent.input(threshold, { target: { value: '0.85' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save threshold' }));
    await waitFor(() =>
      expect(api.chat.PutAnswerSettings).toHaveBeenCalledWith(
        { body: { collection_id: ID, official_threshold: 0.85 } },
        expect.anything(),
      ),
    );
    await screen.findByText('The threshold was saved.');

    fireEvent.click(screen.getByRole('button', { name: `Delete: ${official.question}` }));
    const dialog = await screen.findByRole('dialog');
    expect(api.chat.DeleteOfficialAnswer).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(api.chat.DeleteOfficialAnswer).toHaveBeenCalledWith(
        { id: official.id },
        expect.anything(),
      ),
    );
    await screen.findByText('The official answer was deleted.');
  });

  it('names a citation of a document without pages by its section, never as a page', async () => {
    setLocale('zh');
    const api = fakes();
    const citation = {
      ...official.citations[0]!,
      file_name: '休假办法.docx',
      page: 4,
      section: '第二章 年休假',
      text_source: null,
    };
    api.chat.GetOfficialAnswers.mockResolvedValue([{ ...official, citations: [citation] }]);
    renderInSession(<OfficialSection collection={collection('owner')} />, testSession(api));
    expect(await screen.findByText('引用的片段：休假办法.docx，章节“第二章 年休假”')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: `编辑：${official.question}` }));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByRole('checkbox', { name: /^休假办法\.docx，章节“第二章 年休假”/ }),
    ).toBeTruthy();
  });

  it('edits an answer in the dialog, keeping its citations', async () => {
    const api = fakes();
    renderInSession(<OfficialSection collection={collection('owner')} />, testSession(api));
    fireEvent.click(await screen.findByRole('button', { name: `Edit: ${official.question}` }));
    const dialog = await screen.findByRole('dialog');
    const answer = within(dialog).getByLabelText('Official answer');
    expect((answer as HTMLTextAreaElement).value).toBe(official.answer);
    expect(
      (within(dialog).getByRole('checkbox', { name: /leave\.pdf, page 2/ }) as HTMLInputElement)
        .checked,
    ).toBe(true);
    fireEvent.input(answer, { target: { value: '26 working days.' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save official answer' }));
    await waitFor(() =>
      expect(api.chat.PostOfficialAnswer).toHaveBeenCalledWith(
        {
          body: {
            id: official.id,
            collection_id: ID,
            question: official.question,
            answer: '26 working days.',
            citations: [12],
          },
        },
        expect.anything(),
      ),
    );
    await screen.findByText('The official answer was saved.');
  });
});

describe('the official answer dialog', () => {
  beforeEach(() => setLocale('zh'));

  it('is prefilled, searches the collection for passages to cite, and sends what settles gaps', async () => {
    const api = fakes();
    const session = testSession(api);
    const saved = openOfficialAnswerDialog(session, {
      collectionId: ID,
      question: '年假有多少天？',
      answer: '25 个工作日。',
      citations: [12],
      resolves: [5, 6],
    });
    const dialog = await screen.findByRole('dialog', { name: '标准口径' });
    expect(
      within(dialog).getByText('保存后，知识缺口报告中的 2 个问题也将标记为已解决。'),
    ).toBeTruthy();
    // A prefilled citation not yet seen in a search is named by its number.
    expect(
      (within(dialog).getByRole('checkbox', { name: '片段 #12' }) as HTMLInputElement).checked,
    ).toBe(true);
    fireEvent.click(within(dialog).getByRole('button', { name: '搜索' }));
    await waitFor(() =>
      expect(api.knowledge.GetQuery).toHaveBeenCalledWith(
        { text: '年假有多少天？', top: 10, collection_id: ID },
        expect.anything(),
      ),
    );
    const other = await within(dialog).findByRole('checkbox', { name: /leave\.pdf，第 3 页/ });
    expect((other as HTMLInputElement).checked).toBe(false);
    fireEvent.click(other);
    fireEvent.click(within(dialog).getByRole('button', { name: '保存标准口径' }));
    expect(await saved).toBe(true);
    expect(api.chat.PostOfficialAnswer).toHaveBeenCalledWith(
      {
        body: {
          collection_id: ID,
          question: '年假有多少天？',
          answer: '25 个工作日。',
          citations: [12, 13],
          resolves: [5, 6],
        },
      },
      expect.anything(),
    );
  });

  it('marks a passage of a document no longer in force and leaves it unticked, to be ticked by choice', async () => {
    const api = fakes();
    const repealed = {
      status: 'repealed' as const,
      relations: [
        {
          id: 1,
          relation: 'repealed_by' as const,
          file_id: null,
          file_name: null,
          doc_number: '川办规〔2025〕6号',
          title: null,
          origin: 'extracted' as const,
        },
      ],
    };
    api.knowledge.GetQuery.mockResolvedValue([
      { ...hit(14, 4), file_name: 'old.md', validity: repealed } as never,
    ]);
    const saved = openOfficialAnswerDialog(testSession(api), {
      collectionId: ID,
      question: '一类会议住宿费标准是多少？',
      answer: '400 元/人天。',
      citations: [12, 13],
      cited: [
        { chunk_id: 12, file_name: 'huiyi-2025.html', page: 4, validity: undefined },
        {
          chunk_id: 13,
          file_name: 'huiyi-2023.md',
          page: 4,
          doc_number: '川办规〔2023〕4号',
          validity: repealed,
        },
      ],
    });
    const dialog = await screen.findByRole('dialog');
    const current = within(dialog).getByRole('checkbox', { name: /^huiyi-2025\.html/ });
    const old = within(dialog).getByRole('checkbox', { name: /^huiyi-2023\.md/ });
    expect((current as HTMLInputElement).checked).toBe(true);
    expect((old as HTMLInputElement).checked).toBe(false);
    // The same badge as the file rows, naming the document that repealed it.
    const badge = within(old.closest('label')!).getByText('已废止').closest('.badge')!;
    expect(badge.getAttribute('title')).toBe('已被 川办规〔2025〕6号 废止');
    expect(within(old.closest('label')!).getByText(/川办规〔2023〕4号/)).toBeTruthy();
    expect(
      within(dialog).getByText('已不再有效的文件中的片段默认不勾选：确需据其作答时再勾选。'),
    ).toBeTruthy();

    // A search result of a repealed document is marked too.
    fireEvent.click(within(dialog).getByRole('button', { name: '搜索' }));
    const found = await within(dialog).findByRole('checkbox', { name: /^old\.md/ });
    expect(within(found.closest('label')!).getByText('已废止')).toBeTruthy();

    // The keeper may still rest the answer on it.
    fireEvent.click(old);
    fireEvent.click(within(dialog).getByRole('button', { name: '保存标准口径' }));
    expect(await saved).toBe(true);
    expect(api.chat.PostOfficialAnswer).toHaveBeenCalledWith(
      { body: expect.objectContaining({ citations: [12, 13] }) },
      expect.anything(),
    );
  });

  it('says why it was not saved and keeps what was typed', async () => {
    const api = fakes();
    api.chat.PostOfficialAnswer.mockRejectedValueOnce(refusal(403, 'permission_denied'));
    const saved = openOfficialAnswerDialog(testSession(api), { collectionId: ID });
    const dialog = await screen.findByRole('dialog');
    fireEvent.input(within(dialog).getByLabelText('问题'), { target: { value: '问题一' } });
    fireEvent.input(within(dialog).getByLabelText('标准答复'), { target: { value: '答复一' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '保存标准口径' }));
    await within(dialog).findByText(/标准口径未能保存/);
    expect((within(dialog).getByLabelText('问题') as HTMLInputElement).value).toBe('问题一');
    fireEvent.click(within(dialog).getByRole('button', { name: '取消' }));
    expect(await saved).toBe(false);
  });
});
