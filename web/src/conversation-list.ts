import type { Conversation } from './api/services';
import type { AppContext } from './context';
import { h, replace, uid } from './dom';
import { t } from './i18n/bind';
import { failureText } from './i18n/failure';
import { formatDate } from './i18n/format';

const PAGE_SIZE = 30;

export interface ConversationList {
  element: HTMLElement;
  readonly items: readonly Conversation[];
  refresh(): Promise<void>;
  /** The open conversation, marked in the list (undefined: a new one, not stored yet). */
  setCurrent(id: string | undefined): void;
  /** A conversation created or continued just now: first in the list. */
  touch(conversation: Conversation): void;
  /** A renamed conversation, in place. */
  update(conversation: Conversation): void;
  remove(id: string): void;
  byId(id: string): Conversation | undefined;
}

/**
 * The user's conversations, most recently continued first, as buttons that open them. Which
 * one is open is marked with aria-current; new, rename and delete live in the chat's header.
 */
export function createConversationList(
  ctx: AppContext,
  open: (conversation: Conversation) => void,
): ConversationList {
  const titleId = uid('conversations-title');
  let items: Conversation[] = [];
  let total = 0;
  let loaded = false;
  let current: string | undefined;
  let page = 1;

  const list = h('ul', { class: 'conversation-items' });
  const status = h('p', { class: 'conversation-list-status' });
  const more = h(
    'button',
    {
      type: 'button',
      class: 'button small conversation-more',
      hidden: true,
      on: { click: () => void loadMore() },
    },
    t((m) => m.conversations.more),
  );
  const element = h(
    'nav',
    { class: 'conversation-list', 'aria-labelledby': titleId },
    h(
      'h3',
      { id: titleId, class: 'conversation-list-title' },
      t((m) => m.conversations.conversations),
    ),
    status,
    list,
    more,
  );
  replace(
    status,
    t((m) => m.conversations.loading),
  );

  function render(): void {
    status.hidden = loaded && items.length > 0;
    if (loaded && items.length === 0) {
      replace(
        status,
        t((m) => m.conversations.none),
      );
    }
    more.hidden = items.length >= total;
    replace(
      list,
      items.map((conversation) => {
        const updated = conversation.updated_at;
        return h(
          'li',
          null,
          h(
            'button',
            {
              type: 'button',
              class: 'conversation-item',
              'data-id': conversation.id,
              'aria-current': conversation.id === current ? 'true' : false,
              on: { click: () => open(conversation) },
            },
            h('span', { class: 'conversation-item-title' }, conversation.title),
            h(
              'span',
              { class: 'conversation-item-date' },
              h(
                'span',
                { class: 'visually-hidden' },
                t((m) => m.conversations.updated('')),
              ),
              h(
                'time',
                { datetime: updated },
                t(() => formatDate(updated)),
              ),
            ),
          ),
        );
      }),
    );
  }

  async function fetchPage(number: number): Promise<boolean> {
    try {
      const answer = await ctx.api.chat.GetConversations(
        { page: number, size: PAGE_SIZE },
        { signal: ctx.signal },
      );
      const known = new Set(items.map((c) => c.id));
      items =
        number === 1
          ? answer.items
          : [...items, ...answer.items.filter((conversation) => !known.has(conversation.id))];
      total = answer.total;
      page = number;
      loaded = true;
      render();
      return true;
    } catch (err) {
      if (ctx.signal.aborted) return false;
      const failure = ctx.fail(err);
      if (failure.status === 401) return false;
      status.hidden = false;
      replace(
        status,
        t((m) => m.conversations.loadFailed(failureText(failure, m))),
      );
      return false;
    }
  }

  async function loadMore(): Promise<void> {
    more.disabled = true;
    await fetchPage(page + 1);
    more.disabled = false;
  }

  return {
    element,
    get items() {
      return items;
    },
    async refresh() {
      await fetchPage(1);
    },
    setCurrent(id) {
      current = id;
      render();
    },
    touch(conversation) {
      const known = items.some((c) => c.id === conversation.id);
      items = [conversation, ...items.filter((c) => c.id !== conversation.id)];
      if (!known) total += 1;
      loaded = true;
      render();
    },
    update(conversation) {
      items = items.map((c) => (c.id === conversation.id ? conversation : c));
      render();
    },
    remove(id) {
      const before = items.length;
      items = items.filter((c) => c.id !== id);
      if (items.length < before) total = Math.max(0, total - 1);
      render();
    },
    byId: (id) => items.find((c) => c.id === id),
  };
}
