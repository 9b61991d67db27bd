import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Collection } from '../api/services';
import { setLocale } from '../i18n/locale';
import { refusal, renderInSession, testSession } from '../testing/session';
import { withStylesheet } from '../testing/stylesheet';
import { RetrievalSection } from './retrieval-page';
import type { QueryResult, RetrievalTest, RetrievalTestRun } from './types';

const ID = '22222222-2222-4222-8222-222222222222';
const FILE = '33333333-3333-4333-8333-333333333333';
const collection = (role: Collection['role']): Collection =>
  ({ id: ID, name: 'Policies', description: '', role, shared: false, files: 2 }) as Collection;

const result = (id: number, similarity: number, ranks: QueryResult['ranks']): QueryResult =>
  ({
    id,
    similarity,
    content: `Passage ${id}: after ten years of service, 25 working days.`,
    file_id: FILE,
    file_name: 'leave.pdf',
    collection_id: ID,
    collection_name: 'Policies',
    page: id,
    section: null,
    text_source: 'text_layer',
    heading_path: id === 2 ? 'Chapter 2 › Article 5' : null,
    found_by: Object.keys(ranks) as QueryResult['found_by'],
    ranks,
  }) as QueryResult;

const saved: RetrievalTest = {
  id: 7,
  collection_id: ID,
  question: 'annual leave after ten years',
  file_id: FILE,
  file_name: 'leave.pdf',
  page: 2,
  section: null,
  created_by: 'ada',
  created_at: '2026-01-01T00:00:00.000Z',
};
const gone: RetrievalTest = { ...saved, id: 8, question: 'parking', file_name: null, page: null };

function fakes(overrides: Record<string, (...args: never[]) => unknown> = {}) {
  const tests: RetrievalTest[] = [];
  return {
    knowledge: {
      GetRetrievalTests: async () => [...tests],
      GetQuery: vi.fn(async () => [
        result(2, 0.71, { vector: 1, keyword: 3 }),
        result(4, 0.42, { keyword: 1 }),
      ]),
      PostRetrievalTest: vi.fn(async ({ body }: { body: Omit<RetrievalTest, 'id'> }) => {
        tests.push({ ...saved, ...body });
        return saved;
      }),
      ...overrides,
    },
    chat: {
      GetAnswerSettings: async () => ({
        collection_id: ID,
        min_similarity: 0.5,
        official_threshold: 0.9,
      }),
    },
  };
}

async function searchFor(question: string) {
  fireEvent.input(await screen.findByLabelText('Question'), { target: { value: question } });
  fireEvent.click(screen.getByRole('button', { name: 'Search' }));
  return screen.findByRole('table', { name: '2 passages, best first' });
}

describe('the retrieval test screen', () => {
  beforeEach(() => setLocale('en'));

  it('shows each passage’s ranks, similarity and chat’s verdict in words, and saves it as a test', async () => {
    const api = fakes();
    renderInSession(<RetrievalSection collection={collection('editor')} />, testSession(api));
    const table = await searchFor('annual leave after ten years');
    expect(api.knowledge.GetQuery).toHaveBeenCalledWith(
      { text: 'annual leave after ten years', top: 10, mode: 'hybrid', collection_id: ID },
      expect.anything(),
    );
    const [, first, second] = within(table).getAllByRole('row');
    expect(within(first!).getByText('✓ passes')).toBeTruthy();
    expect(within(first!).getByText('vector + keyword')).toBeTruthy();
    expect(within(second!).getByText('✗ below')).toBeTruthy();
    expect(within(second!).getByText('—')).toBeTruthy(); // no vector rank
    // Its chapter and article with its page, as chat names a source.
    const link = within(first!).getByRole('link', {
      name: 'leave.pdf · Chapter 2 › Article 5 · page 2',
    });
    expect(link.getAttribute('href')).toBe(`#/doc/${FILE}?page=2&chunk=2`);

    fireEvent.click(within(first!).getByRole('button', { name: 'Save as test' }));
    await waitFor(() =>
      expect(api.knowledge.PostRetrievalTest).toHaveBeenCalledWith(
        {
          body: {
            collection_id: ID,
            question: 'annual leave after ten years',
            file_id: FILE,
            page: 2,
          },
        },
        expect.anything(),
      ),
    );
    expect(await screen.findByText('The question was saved to the test set.')).toBeTruthy();
    expect(
      await screen.findByText('1 saved question, each with the file (and page) it should find.'),
    ).toBeTruthy();
  });

  it('leaves the verdict out when chat’s threshold cannot be had, and offers a viewer no saving', async () => {
    const api = fakes();
    api.chat.GetAnswerSettings = () => Promise.reject(refusal(404, 'not_found'));
    renderInSession(<RetrievalSection collection={collection('viewer')} />, testSession(api));
    const table = await searchFor('leave');
    expect(within(table).queryByRole('columnheader', { name: 'Chat threshold' })).toBeNull();
    expect(within(table).queryByText(/passes|below/)).toBeNull();
    expect(within(table).queryByRole('button', { name: 'Save as test' })).toBeNull();
  });

  it('runs the saved set and shows each case’s rank, a miss in words, hit rate and MRR', async () => {
    const run: RetrievalTestRun = {
      collection_id: ID,
      mode: 'hybrid',
      top: 10,
      cases: [
        { id: 7, question: saved.question, file_id: FILE, page: 2, rank: 2, similarity: 0.71 },
        { id: 8, question: 'parking', file_id: FILE, page: null, rank: null, similarity: null },
      ],
      hit_rate: 0.5,
      mrr: 0.25,
    };
    const PostRetrievalTestRun = vi.fn(async () => run);
    const api = fakes({ GetRetrievalTests: async () => [saved, gone], PostRetrievalTestRun });
    renderInSession(<RetrievalSection collection={collection('owner')} />, testSession(api));
    expect(await screen.findByText('file deleted')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Run test set' }));
    expect(
      await screen.findByText('Hit rate 50% · MRR 0.25 over 2 questions (top 10)'),
    ).toBeTruthy();
    // The summary's terms said plainly beside it.
    expect(
      screen.getByText(
        /^Hit rate: .+ among the top 10 results\. MRR \(mean reciprocal rank\): 1 when it ranks first/,
      ),
    ).toBeTruthy();
    expect(PostRetrievalTestRun).toHaveBeenCalledWith(
      { body: { collection_id: ID, mode: 'hybrid', top: 10 } },
      expect.anything(),
    );
    const found = screen.getByRole('row', { name: /^annual leave after ten years/ });
    expect(within(found).getByText('✓ 2')).toBeTruthy();
    const missed = screen.getByRole('row', { name: /^parking/ });
    expect(within(missed).getByText('✗ not found')).toBeTruthy();
    expect(within(missed).getByRole('button', { name: 'Delete: parking' })).toBeTruthy();
  });

  it('explains hit rate and MRR in Chinese', async () => {
    setLocale('zh');
    const run = { collection_id: ID, mode: 'hybrid', top: 5, cases: [], hit_rate: 1, mrr: 1 };
    const api = fakes({
      GetRetrievalTests: async () => [saved],
      PostRetrievalTestRun: async () => run,
    });
    renderInSession(<RetrievalSection collection={collection('owner')} />, testSession(api));
    fireEvent.click(await screen.findByRole('button', { name: '运行测试集' }));
    expect(await screen.findByText(/^命中率：.+前 5 个结果中.+MRR（平均倒数排名）：/)).toBeTruthy();
  });

  it('lets a Chinese column header wrap only between words, never after each character', async () => {
    const style = await withStylesheet('web/src/styles/retrieval.css');
    try {
      setLocale('zh');
      renderInSession(<RetrievalSection collection={collection('editor')} />, testSession(fakes()));
      fireEvent.input(await screen.findByLabelText('问题'), { target: { value: '年休假' } });
      fireEvent.click(screen.getByRole('button', { name: '检索' }));
      const header = await screen.findByRole('columnheader', { name: '向量排名' });
      expect(getComputedStyle(header).wordBreak).toBe('keep-all');
    } finally {
      style.remove();
    }
  });

  it('lets "vector + keyword" wrap between its lists in a narrow window, so the table fits', async () => {
    // In a 900 px window the English table could not be narrower than 1014 px with this cell
    // on one line (jsdom's window is 1024 px wide, inside the narrow band).
    const style = await withStylesheet('web/src/styles/retrieval.css');
    try {
      renderInSession(<RetrievalSection collection={collection('editor')} />, testSession(fakes()));
      const table = await searchFor('annual leave after ten years');
      const cell = within(table).getByText('vector + keyword');
      expect(cell.textContent).toBe('vector\u00a0+ keyword'); // the + stays with "vector"
      expect(getComputedStyle(cell).whiteSpace).toBe('normal');
      expect(getComputedStyle(cell).wordBreak).toBe('keep-all');
      // Numbers stay whole.
      expect(getComputedStyle(within(table).getByText('0.71')).whiteSpace).toBe('nowrap');
    } finally {
      style.remove();
    }
  });

  it('names a passage of a document without pages by its section, never as a page', async () => {
    setLocale('zh');
    const docx = {
      ...result(3, 0.66, { vector: 1 }),
      file_name: '休假办法.docx',
      section: '第二章 年休假 › 第五条',
      heading_path: '第二章 年休假 › 第五条',
      text_source: null,
    } as QueryResult;
    const api = fakes({ GetQuery: vi.fn(async () => [docx]) });
    renderInSession(<RetrievalSection collection={collection('editor')} />, testSession(api));
    fireEvent.input(await screen.findByLabelText('问题'), { target: { value: '年休假' } });
    fireEvent.click(screen.getByRole('button', { name: '检索' }));
    const table = await screen.findByRole('table', { name: '共 1 个片段，按相关度排序' });
    const link = within(table).getByRole('link', {
      name: '休假办法.docx · 章节“第二章 年休假 › 第五条”',
    });
    expect(link.getAttribute('title')).toBe(
      '打开 休假办法.docx 章节“第二章 年休假 › 第五条”，并高亮该片段',
    );
    expect(within(table).getByRole('button', { name: '保存为测试' }).title).toBe(
      '把这个问题保存为测试，期望找到 休假办法.docx 章节“第二章 年休假 › 第五条”',
    );
    expect(table.textContent).not.toContain('页');
  });

  it('names a saved question’s expected section by its headings, never as a page', async () => {
    setLocale('zh');
    const sectioned = { ...saved, file_name: '休假办法.docx', page: 5, section: '第二章 年休假' };
    const api = fakes({ GetRetrievalTests: async () => [sectioned] });
    renderInSession(<RetrievalSection collection={collection('viewer')} />, testSession(api));
    const row = await screen.findByRole('row', { name: /^annual leave after ten years/ });
    expect(row.textContent).toContain('休假办法.docx · 章节“第二章 年休假”');
    expect(row.textContent).not.toContain('页');
  });

  it('speaks Chinese', async () => {
    setLocale('zh');
    renderInSession(<RetrievalSection collection={collection('editor')} />, testSession(fakes()));
    expect(await screen.findByRole('heading', { name: '检索测试' })).toBeTruthy();
    fireEvent.input(screen.getByLabelText('问题'), { target: { value: '年休假' } });
    fireEvent.click(screen.getByRole('button', { name: '检索' }));
    const table = await screen.findByRole('table', { name: '共 2 个片段，按相关度排序' });
    expect(within(table).getByText('✓ 达到')).toBeTruthy();
    expect(within(table).getAllByRole('button', { name: '保存为测试' })).toHaveLength(2);
  });
});
