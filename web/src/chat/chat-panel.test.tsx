import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Collection } from '../api/services';
import { SHARED_COLLECTION_ID } from '../collection-access';
import { createCollectionStore } from '../collection-store';
import { setLocale } from '../i18n/locale';
import { fakeGetFiles } from '../files/fake-files';
import { createKnowledgeStore } from '../knowledge-store';
import { renderInSession, testSession } from '../testing/session';
import { ChatPanel } from './chat-panel';
import { createChatSession } from './chat-session';

const SHARED = {
  id: SHARED_COLLECTION_ID,
  name: 'shared',
  description: '',
  shared: true,
  role: 'owner',
  files: 0,
  created_at: '2026-01-01T00:00:00.000Z',
} as Collection;
const CONVERSATION = '44444444-4444-4444-8444-444444444444';

/** The chat's stream as the service sends it: the conversation, the answer, its sources. */
async function* answer() {
  yield {
    event: 'conversation',
    data: { conversation_id: CONVERSATION, message_id: crypto.randomUUID(), title: 'Rent' },
  };
  yield { event: 'message', data: { content: 'Rent is due on the ', type: 'text' } };
  yield { event: 'message', data: { content: '**first**.', type: 'text' } };
  yield {
    event: 'sources',
    data: [{ file_id: crypto.randomUUID(), file_name: 'lease.pdf', page: 2, similarity: 0.9 }],
  };
  yield { event: 'done', data: { mode: 'retrieval' } };
}

const LEASE = '55555555-5555-4555-8555-555555555555';

/** A refusal: nothing similar enough, the closest passage in lease.pdf. */
async function* refused() {
  yield {
    event: 'message',
    data: { content: 'no', type: 'error', code: 'no_relevant_knowledge', request_id: 'r' },
  };
  yield {
    event: 'refusal',
    data: {
      request_id: 'r',
      best_similarity: 0.42,
      threshold: 0.5,
      candidates: [
        {
          file_id: LEASE,
          file_name: 'lease.pdf',
          page: 3,
          section: null,
          chunk_id: 7,
          similarity: 0.42,
        },
      ],
    },
  };
}

async function showChat({
  collectionsFirst = true,
  first = answer as () => AsyncGenerator<unknown>,
} = {}) {
  const Chat = vi.fn(async (): Promise<AsyncGenerator<unknown>> => answer());
  Chat.mockImplementationOnce(async () => first());
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
  if (collectionsFirst) await collections.refresh();
  return { Chat };
}

describe('the chat panel', () => {
  beforeEach(() => setLocale('en'));
  afterEach(() => vi.restoreAllMocks());

  it('asks on Enter, streams the answer into a new turn, and lists the new conversation', async () => {
    const { Chat } = await showChat();
    expect(await screen.findByText(/^No conversations yet/)).toBeTruthy();
    const box = screen.getByLabelText('Your question');
    fireEvent.input(box, { target: { value: 'When is rent due?' } });
    fireEvent.keyDown(box, { key: 'Enter' });

    const turn = await screen.findByRole('article');
    expect(turn.querySelector('.question-text')?.textContent).toBe('When is rent due?');
    await waitFor(() => expect(turn.getAttribute('aria-busy')).toBe('false'));
    expect(turn.querySelector('.markdown strong')?.textContent).toBe('first');
    const source = within(turn).getByRole('link', { name: /^Source 1: lease\.pdf/ });
    expect(source.getAttribute('href')).toMatch(/^#\/doc\/[0-9a-f-]{36}\?page=\d+/);
    expect(Chat).toHaveBeenCalledWith(
      {
        body: expect.objectContaining({ prompt: 'When is rent due?', conversation_id: undefined }),
      },
      expect.anything(),
    );

    const listed = screen.getByRole('button', { name: /^Rent/ });
    expect(listed.getAttribute('aria-current')).toBe('true');
    expect(document.querySelector('.chat-head-title')?.textContent).toBe('Rent');
    expect((box as HTMLTextAreaElement).value).toBe('');
  });

  it.each([
    ['a phone', 600],
    ['a small two-pane screen', 900],
  ])('on %s keeps the head short: the conversation’s actions under More', async (_, width) => {
    // The queries as a window of this width answers them (max-width ones only, as the app's).
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query: string) =>
        ({
          matches: width <= Number(/max-width: (\d+)px/.exec(query)?.[1] ?? 0),
          addEventListener() {},
          removeEventListener() {},
        }) as unknown as MediaQueryList,
    );
    await showChat();
    const box = screen.getByLabelText('Your question');
    fireEvent.input(box, { target: { value: 'When is rent due?' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() =>
      expect(document.querySelector('.chat-head-title')?.textContent).toBe('Rent'),
    );
    // The list and New conversation keep their names (their words are hidden from sight only).
    expect(screen.getByRole('button', { name: 'Conversations' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'New conversation' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Rename: Rent' })).toBeNull();
    const more = screen.getByRole('button', { name: 'More actions for Rent' });
    fireEvent.click(more);
    const menu = screen.getByRole('menu', { name: 'More actions for Rent' });
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Export Markdown', 'Save as PDF', 'Rename', 'Delete']);
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(document.activeElement).toBe(more);
  });

  it('on a wide screen shows the conversation’s actions in its head, with no More', async () => {
    await showChat();
    const box = screen.getByLabelText('Your question');
    fireEvent.input(box, { target: { value: 'When is rent due?' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(await screen.findByRole('button', { name: 'Rename: Rent' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^More actions/ })).toBeNull();
  });

  it('asked before the collections arrived, the question still searches the one to be shown', async () => {
    const { Chat } = await showChat({ collectionsFirst: false });
    const box = screen.getByLabelText('Your question');
    fireEvent.input(box, { target: { value: 'Anything new?' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(Chat).toHaveBeenCalled());
    expect(Chat).toHaveBeenCalledWith(
      { body: expect.objectContaining({ collection_id: SHARED_COLLECTION_ID }) },
      expect.anything(),
    );
  });

  it('a refusal names the closest passage, and asks again within its file on request', async () => {
    const { Chat } = await showChat({ first: refused });
    const box = screen.getByLabelText('Your question');
    fireEvent.input(box, { target: { value: 'Who repaints the hallway?' } });
    fireEvent.keyDown(box, { key: 'Enter' });

    const refusal = await screen.findByText(/^The closest passage found/);
    const notice = refusal.closest('.answer-notice') as HTMLElement;
    expect(within(notice).getByRole('link', { name: 'lease.pdf' }).getAttribute('href')).toBe(
      `#/doc/${LEASE}?page=3&chunk=7`,
    );
    // The scores are there for who wants them, folded.
    const why = notice.querySelector('details.refusal-scores') as HTMLDetailsElement;
    expect(why.open).toBe(false);
    expect(why.textContent).toContain('0.42');

    fireEvent.click(within(notice).getByRole('button', { name: 'Ask in lease.pdf only' }));
    await waitFor(() => expect(Chat).toHaveBeenCalledTimes(2));
    expect(Chat).toHaveBeenLastCalledWith(
      {
        body: expect.objectContaining({ prompt: 'Who repaints the hallway?', file_id: LEASE }),
      },
      expect.anything(),
    );
    const turns = screen.getAllByRole('article');
    expect(turns).toHaveLength(2);
    expect(turns[1]!.querySelector('.question-scope')?.textContent).toContain('lease.pdf');
  });
});
