import { signal } from '@preact/signals';
import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setLocale } from '../i18n/locale';
import type { Collection } from '../api/services';
import { SHARED_COLLECTION_ID } from '../collection-access';
import { createCollectionStore } from '../collection-store';
import { fakeGetFiles } from '../files/fake-files';
import { createKnowledgeStore } from '../knowledge-store';
import { renderInSession, testSession } from '../testing/session';
import { ChatPanel } from './chat-panel';
import { createChatSession } from './chat-session';
import { activeFilters, FilterBar, type Filters } from './filter-bar';
import { Turn } from './turn';
import { createTurn } from './turn-model';

describe('the filter bar', () => {
  beforeEach(() => setLocale('zh'));

  it('sets each filter, sends only those set, and clears them', async () => {
    const filters = signal<Filters>({});
    render(<FilterBar filters={filters} />);
    expect(activeFilters(filters.value)).toBeUndefined();
    expect(screen.queryByRole('button', { name: '清除筛选' })).toBeNull();

    fireEvent.input(screen.getByLabelText('发文机关'), { target: { value: ' 杭州市 ' } });
    fireEvent.change(screen.getByLabelText('文种'), { target: { value: '办法' } });
    fireEvent.input(screen.getByLabelText('发文日期自'), { target: { value: '2024-01-01' } });
    fireEvent.click(screen.getByLabelText('仅看现行有效'));
    expect(activeFilters(filters.value)).toEqual({
      issuer: '杭州市',
      doc_type: '办法',
      issued_from: '2024-01-01',
      in_force: true,
    });

    fireEvent.click(await screen.findByRole('button', { name: '清除筛选' }));
    expect(filters.value).toEqual({});
    await waitFor(() =>
      expect((screen.getByLabelText('发文机关') as HTMLInputElement).value).toBe(''),
    );
  });

  it('leaves out an issuer of spaces and an unticked box', () => {
    expect(activeFilters({ issuer: '  ', in_force: false })).toBeUndefined();
  });
});

describe('filters read from the question', () => {
  beforeEach(() => setLocale('zh'));

  it('shows a chip for each; removing one asks again with the others, the last with none', async () => {
    const turn = createTurn('只看杭州市2024年以后的文件', [], {
      announce: vi.fn(),
      atEnd: () => false,
      toEnd: vi.fn(),
    });
    const onRefilter = vi.fn();
    renderInSession(<Turn turn={turn} announce={vi.fn()} onRefilter={onRefilter} />);
    expect(document.querySelector('.proposed-filters')).toBeNull();

    turn.proposeFilters({ issuer: '杭州市', issued_from: '2024-01-01' });
    await waitFor(() => expect(screen.getByText('发文机关：杭州市')).toBeTruthy());
    expect(screen.getByText('根据问题筛选：')).toBeTruthy();
    // A date as Chinese writes it, not as ISO.
    expect(screen.getByText('2024年1月1日起')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '移除筛选：发文机关：杭州市' }));
    expect(onRefilter).toHaveBeenLastCalledWith({ issued_from: '2024-01-01' });

    turn.proposeFilters({ in_force: true });
    await waitFor(() => expect(screen.getByText('现行有效')).toBeTruthy());
    fireEvent.click(screen.getByRole('button', { name: '移除筛选：现行有效' }));
    expect(onRefilter).toHaveBeenLastCalledWith({});
  });
});

const SHARED = {
  id: SHARED_COLLECTION_ID,
  name: 'shared',
  description: '',
  shared: true,
  role: 'owner',
  files: 0,
  created_at: '2026-01-01T00:00:00.000Z',
} as Collection;

/** A stream that tells proposed filters before its answer, as the service does. */
async function* answer(proposed?: Filters) {
  yield {
    event: 'conversation',
    data: { conversation_id: crypto.randomUUID(), message_id: crypto.randomUUID(), title: 'q' },
  };
  if (proposed)
    yield { event: 'filters', data: { request_id: 'r', filters: proposed, proposed: true } };
  yield { event: 'message', data: { content: '补贴为800元。', type: 'content' } };
  yield { event: 'done', data: { mode: 'retrieval' } };
}

describe('questions asked with filters', () => {
  beforeEach(() => setLocale('zh'));

  it('sends the bar’s filters; none set, the service’s proposal shows, and removing it re-asks with {}', async () => {
    const Chat = vi.fn(async ({ body }: { body: { filters?: Filters } }) =>
      answer(body.filters ? undefined : { issuer: '杭州市' }),
    );
    const session = testSession({
      knowledge: {
        GetCollections: async () => [SHARED],
        GetList: async () => [],
        GetFiles: fakeGetFiles([]),
      },
      chat: { GetConversations: async () => ({ items: [], total: 0 }), Chat },
    });
    const collections = createCollectionStore(session);
    const store = createKnowledgeStore(session, collections);
    const chat = createChatSession(session, store, collections);
    renderInSession(<ChatPanel session={chat} store={store} collections={collections} />, session);
    await collections.refresh();
    const box = screen.getByLabelText('您的问题');

    fireEvent.input(box, { target: { value: '只看杭州市的补贴' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(screen.getByText('发文机关：杭州市')).toBeTruthy());
    expect(Chat.mock.calls[0]![0].body.filters).toBeUndefined();

    fireEvent.click(screen.getByRole('button', { name: '移除筛选：发文机关：杭州市' }));
    await waitFor(() => expect(Chat).toHaveBeenCalledTimes(2));
    expect(Chat.mock.calls[1]![0].body).toMatchObject({ prompt: '只看杭州市的补贴', filters: {} });

    await waitFor(() => expect(chat.streaming.value).toBeUndefined());
    fireEvent.click(screen.getByLabelText('仅看现行有效'));
    fireEvent.input(box, { target: { value: '补贴标准' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(Chat).toHaveBeenCalledTimes(3));
    expect(Chat.mock.calls[2]![0].body.filters).toEqual({ in_force: true });
  });
});
