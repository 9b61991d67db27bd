import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatSource, Collection } from '../api/services';
import type { CollectionStore } from '../collection-store';
import { Turn } from '../chat/turn';
import { createTurn } from '../chat/turn-model';
import { setLocale } from '../i18n/locale';
import { renderInSession, testSession } from '../testing/session';
import { withStylesheet } from '../testing/stylesheet';

const OWNED = '22222222-2222-4222-8222-222222222222';
const READ = '55555555-5555-4555-8555-555555555555';
const hooks = () => ({ announce: vi.fn(), atEnd: () => false, toEnd: vi.fn() });

const source = (collection_id: string, chunk_id: number, citation: number | null): ChatSource =>
  ({
    file_id: '33333333-3333-4333-8333-333333333333',
    file_name: 'leave.pdf',
    collection_id,
    collection_name: 'Policies',
    page: chunk_id,
    similarity: 0.8,
    chunk_id,
    citation,
  }) as ChatSource;

const store = (collections: Partial<Collection>[]) =>
  ({ collections, subscribe: () => () => undefined }) as unknown as CollectionStore;

function answered(mode: 'retrieval' | 'official', sources: ChatSource[]) {
  const turn = createTurn('年假有多少天？', [], hooks());
  turn.message({ content: '25 个工作日 [1]。依据第十条【1】【2】。', type: 'content' } as never);
  turn.setSources(sources);
  turn.done({ request_id: 'r', mode, language: 'zh' } as never);
  turn.finish();
  return turn;
}

describe('official answers in the chat', () => {
  beforeEach(() => setLocale('zh'));

  it('marks an answer given as written with a badge, and offers no "make official" on it', async () => {
    const turn = answered('official', [source(OWNED, 12, 1)]);
    renderInSession(
      <Turn turn={turn} announce={vi.fn()} collections={store([{ id: OWNED, role: 'owner' }])} />,
    );
    const badge = await screen.findByText('标准口径', { selector: '.official-badge' });
    expect(badge.getAttribute('title')).toBe('按资料集所有者审定的标准口径原文作答，未调用模型。');
    expect(screen.queryByRole('button', { name: '设为标准口径' })).toBeNull();
  });

  it('offers an owner of a cited collection to make the answer official, prefilled', async () => {
    const PostOfficialAnswer = vi.fn(async () => ({}));
    const turn = answered('retrieval', [source(READ, 7, null), source(OWNED, 12, 1)]);
    renderInSession(
      <Turn
        turn={turn}
        announce={vi.fn()}
        collections={store([
          { id: OWNED, role: 'owner' },
          { id: READ, role: 'viewer' },
        ])}
      />,
      testSession({ chat: { PostOfficialAnswer } }),
    );
    fireEvent.click(await screen.findByRole('button', { name: '设为标准口径' }));
    const dialog = await screen.findByRole('dialog');
    expect((within(dialog).getByLabelText('问题') as HTMLInputElement).value).toBe(
      '年假有多少天？',
    );
    // The answer without its citation markers: its passages are listed apart.
    expect((within(dialog).getByLabelText('标准答复') as HTMLTextAreaElement).value).toBe(
      '25 个工作日。依据第十条。',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: '保存标准口径' }));
    await waitFor(() =>
      expect(PostOfficialAnswer).toHaveBeenCalledWith(
        {
          body: {
            collection_id: OWNED,
            question: '年假有多少天？',
            answer: '25 个工作日。依据第十条。',
            citations: [12],
          },
        },
        expect.anything(),
      ),
    );
  });

  it('draws the passage search as the other text boxes, and the passages without bullets', async () => {
    const style = await withStylesheet(
      'web/src/styles/controls.css',
      'web/src/styles/official.css',
    );
    try {
      const turn = answered('retrieval', [source(OWNED, 12, 1)]);
      renderInSession(
        <Turn turn={turn} announce={vi.fn()} collections={store([{ id: OWNED, role: 'owner' }])} />,
      );
      fireEvent.click(await screen.findByRole('button', { name: '设为标准口径' }));
      const dialog = await screen.findByRole('dialog');
      const search = within(dialog).getByRole('searchbox', { name: '在资料集中搜索' });
      const question = within(dialog).getByLabelText('问题');
      for (const property of ['paddingLeft', 'borderRadius', 'width'] as const) {
        expect(getComputedStyle(search)[property]).toBe(getComputedStyle(question)[property]);
      }
      expect(getComputedStyle(within(dialog).getByRole('list')).listStyleType).toBe('none');
      const group = within(dialog).getByRole('group', { name: '引用的片段' });
      expect(getComputedStyle(group).paddingLeft).toBe('12px'); // framed as the app's groups
    } finally {
      style.remove();
    }
  });

  it('offers nothing to a reader who owns none of the collections it came from', async () => {
    const turn = answered('retrieval', [source(READ, 7, 1)]);
    renderInSession(
      <Turn turn={turn} announce={vi.fn()} collections={store([{ id: READ, role: 'viewer' }])} />,
    );
    await waitFor(() => expect(document.querySelector('.sources')).toBeTruthy());
    expect(screen.queryByRole('button', { name: '设为标准口径' })).toBeNull();
  });
});
