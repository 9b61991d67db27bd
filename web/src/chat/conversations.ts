import { signal } from '@preact/signals';
import type { Conversation } from '../api/services';
import type { AppContext } from '../context';
import { t, type Localized } from '../i18n/bind';
import { failureText } from '../i18n/failure';

const PAGE_SIZE = 30;

/**
 * The user's conversations, most recently continued first, a page at a time; and which one
 * is open (undefined: a new one, not stored yet).
 */
export function createConversations(ctx: AppContext) {
  const items = signal<readonly Conversation[]>([]);
  const total = signal(0);
  const loaded = signal(false);
  const failure = signal<Localized | undefined>(undefined);
  const current = signal<string | undefined>(undefined);
  let page = 1;

  async function fetchPage(number: number): Promise<void> {
    try {
      const answer = await ctx.api.chat.GetConversations(
        { page: number, size: PAGE_SIZE },
        { signal: ctx.signal },
      );
      const known = new Set(items.value.map((c) => c.id));
      items.value =
        number === 1
          ? answer.items
          : [...items.value, ...answer.items.filter((conversation) => !known.has(conversation.id))];
      total.value = answer.total;
      page = number;
      loaded.value = true;
      failure.value = undefined;
    } catch (err) {
      if (ctx.signal.aborted) return;
      const failed = ctx.fail(err);
      if (failed.status === 401) return;
      failure.value = t((m) => m.conversations.loadFailed(failureText(failed, m)));
    }
  }

  return {
    items,
    total,
    loaded,
    failure,
    current,
    refresh: () => fetchPage(1),
    loadMore: () => fetchPage(page + 1),
    /** A conversation created or continued just now: first in the list. */
    touch(conversation: Conversation): void {
      const known = items.value.some((c) => c.id === conversation.id);
      items.value = [conversation, ...items.value.filter((c) => c.id !== conversation.id)];
      if (!known) total.value += 1;
      loaded.value = true;
    },
    /** A renamed conversation, in place. */
    update(conversation: Conversation): void {
      items.value = items.value.map((c) => (c.id === conversation.id ? conversation : c));
    },
    remove(id: string): void {
      const before = items.value.length;
      items.value = items.value.filter((c) => c.id !== id);
      if (items.value.length < before) total.value = Math.max(0, total.value - 1);
    },
  };
}

export type Conversations = ReturnType<typeof createConversations>;
