import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Collection } from '../api/services';
import { setLocale } from '../i18n/locale';
import { refusal, renderInSession, testSession } from '../testing/session';
import { GapsSection, type GapGroup, type GapReport } from './gaps-page';

const ID = '22222222-2222-4222-8222-222222222222';
const FILE = '33333333-3333-4333-8333-333333333333';
const collection = {
  id: ID,
  name: 'Policies',
  description: '',
  role: 'owner',
  files: 2,
} as unknown as Collection;

const group = (ids: number[], questions: string[], resolved = false): GapGroup => ({
  ids,
  questions,
  count: ids.length,
  kinds: { refused: ids.length - 1, unhelpful: 1, unsupported: 0 },
  latest: '2026-05-06T07:08:09.000Z',
  best_similarity: 0.43,
  closest_passages: [
    {
      file_id: FILE,
      file_name: 'leave.pdf',
      collection_id: ID,
      collection_name: 'Policies',
      page: 3,
      similarity: 0.43,
      chunk_id: 41,
    },
  ],
  resolved,
});

const open: GapReport = {
  collection_id: ID,
  groups: [group([5, 2, 1], ['年假一共有几天', '年假有几天']), group([4], ['病假工资怎么算'])],
  total: 4,
};

describe('the gap report', () => {
  beforeEach(() => setLocale('en'));

  it('shows each group: its questions, how often and why, best similarity, closest passages', async () => {
    const GetGaps = vi.fn(async () => open);
    renderInSession(<GapsSection collection={collection} />, testSession({ chat: { GetGaps } }));
    expect(await screen.findByText('4 questions in 2 groups')).toBeTruthy();
    const first = screen.getByRole('heading', { level: 3, name: '年假一共有几天' }).closest('li')!;
    expect(within(first).getByText('年假有几天')).toBeTruthy();
    expect(within(first).getByText('Asked 3 times')).toBeTruthy();
    expect(within(first).getByText('refused 2 · unhelpful 1')).toBeTruthy();
    expect(first.textContent).toContain('Best similarity 0.43');
    const link = within(first).getByRole('link', { name: 'leave.pdf, page 3 (0.43)' });
    expect(link.getAttribute('href')).toBe(`#/doc/${FILE}?page=3&chunk=41`);
    expect(GetGaps).toHaveBeenCalledWith({ collection_id: ID }, expect.anything());
  });

  it('marks a group resolved with all its ids, and shows resolved ones on request', async () => {
    const PostGapsResolved = vi.fn(async () => undefined);
    const GetGaps = vi.fn(async (params: { resolved?: boolean }) =>
      params.resolved
        ? { ...open, groups: [...open.groups, group([9], ['公积金怎么提取'], true)], total: 5 }
        : open,
    );
    renderInSession(
      <GapsSection collection={collection} />,
      testSession({ chat: { GetGaps, PostGapsResolved } }),
    );
    const first = (await screen.findByRole('heading', { name: '年假一共有几天' })).closest('li')!;
    fireEvent.click(within(first).getByRole('button', { name: 'Mark as resolved' }));
    await waitFor(() =>
      expect(PostGapsResolved).toHaveBeenCalledWith(
        { body: { ids: [5, 2, 1], resolved: true } },
        expect.anything(),
      ),
    );
    expect(await screen.findByText('Marked as resolved.')).toBeTruthy();

    fireEvent.click(screen.getByRole('checkbox', { name: 'Show resolved' }));
    const resolved = (await screen.findByRole('heading', { name: /公积金怎么提取/ })).closest(
      'li',
    )!;
    expect(within(resolved).getByText('Resolved')).toBeTruthy();
    expect(within(resolved).queryByRole('button', { name: 'Write an official answer' })).toBeNull();
    expect(within(resolved).getByRole('button', { name: 'Reopen' })).toBeTruthy();
    expect(GetGaps).toHaveBeenLastCalledWith(
      { collection_id: ID, resolved: true },
      expect.anything(),
    );
  });

  it('says when there is nothing open, with nothing to export', async () => {
    renderInSession(
      <GapsSection collection={collection} />,
      testSession({ chat: { GetGaps: async () => ({ collection_id: ID, groups: [], total: 0 }) } }),
    );
    expect(await screen.findByText(/No open questions/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Export CSV' }).hasAttribute('disabled')).toBe(true);
  });

  it('tells why the report could not be loaded', async () => {
    renderInSession(
      <GapsSection collection={collection} />,
      testSession({ chat: { GetGaps: () => Promise.reject(refusal(503, 'unavailable')) } }),
    );
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /^The gap report could not be loaded/,
    );
  });

  it('tells a viewer who came by its address who may see it, with no controls and no request', async () => {
    setLocale('zh');
    const GetGaps = vi.fn(async () => open);
    renderInSession(
      <GapsSection collection={{ ...collection, role: 'viewer' }} />,
      testSession({ chat: { GetGaps } }),
    );
    expect(screen.getByText(/^只有本资料集的编辑者和所有者可以查看知识缺口。/)).toBeTruthy();
    expect(screen.queryByRole('checkbox', { name: '显示已解决' })).toBeNull();
    expect(screen.queryByRole('button', { name: '导出 CSV' })).toBeNull();
    await Promise.resolve();
    expect(GetGaps).not.toHaveBeenCalled();
  });

  it('tells the same when the service refuses an editor after all (a role changed)', async () => {
    renderInSession(
      <GapsSection collection={collection} />,
      testSession({ chat: { GetGaps: () => Promise.reject(refusal(403, 'permission_denied')) } }),
    );
    expect(await screen.findByText(/^Only this collection’s editors and owners/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Export CSV' })).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('in Chinese', async () => {
    setLocale('zh');
    renderInSession(
      <GapsSection collection={collection} />,
      testSession({ chat: { GetGaps: async () => open } }),
    );
    expect(await screen.findByText('共 4 个问题，2 组')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: '知识缺口' })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: '撰写标准口径' })).toHaveLength(2);
    expect(screen.getAllByRole('link', { name: 'leave.pdf，第 3 页（0.43）' })).toHaveLength(2);
  });

  it('names a passage of a document without pages by its section, never as a page', async () => {
    setLocale('zh');
    const section = group([9], ['年休假怎么申请']);
    section.closest_passages = [
      {
        ...section.closest_passages[0]!,
        file_name: '休假办法.docx',
        page: 4,
        section: '第二章 年休假',
      },
    ];
    renderInSession(
      <GapsSection collection={collection} />,
      testSession({ chat: { GetGaps: async () => ({ ...open, groups: [section], total: 1 }) } }),
    );
    const link = await screen.findByRole('link', {
      name: '休假办法.docx，章节“第二章 年休假”（0.43）',
    });
    expect(link.getAttribute('title')).toBe('打开 休假办法.docx 章节“第二章 年休假”，并高亮该片段');
    expect(link.getAttribute('href')).toBe(`#/doc/${FILE}?page=4&chunk=41`);
  });
});
