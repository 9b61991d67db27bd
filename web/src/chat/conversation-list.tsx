import { useState } from 'preact/hooks';
import type { Conversation } from '../api/services';
import { useUniqueId } from '../components/unique-id';
import { now } from '../i18n/bind';
import { formatDate } from '../i18n/format';
import { messages } from '../i18n/messages';
import type { Conversations } from './conversations';

export interface ConversationListProps {
  id: string;
  conversations: Conversations;
  onOpen(conversation: Conversation): void;
}

/**
 * The user's conversations as buttons that open them. Which one is open is marked with
 * aria-current; new, rename and delete live in the chat's header.
 */
export function ConversationList({ id, conversations, onOpen }: ConversationListProps) {
  const titleId = useUniqueId('conversations-title');
  const [busy, setBusy] = useState(false);
  const m = messages();
  const items = conversations.items.value;
  const loaded = conversations.loaded.value;
  const failure = conversations.failure.value;
  const current = conversations.current.value;
  return (
    <nav id={id} class="conversation-list" aria-labelledby={titleId}>
      <h3 id={titleId} class="conversation-list-title">
        {m.conversations.conversations}
      </h3>
      <p class="conversation-list-status" hidden={!failure && loaded && items.length > 0}>
        {failure ? now(failure) : loaded ? m.conversations.none : m.conversations.loading}
      </p>
      <ul class="conversation-items">
        {items.map((conversation) => (
          <li key={conversation.id}>
            <button
              type="button"
              class="conversation-item"
              data-id={conversation.id}
              aria-current={conversation.id === current ? 'true' : undefined}
              onClick={() => onOpen(conversation)}
            >
              <span class="conversation-item-title">{conversation.title}</span>
              <span class="conversation-item-date">
                <span class="visually-hidden">{m.conversations.updated('')}</span>
                <time datetime={conversation.updated_at}>
                  {formatDate(conversation.updated_at)}
                </time>
              </span>
            </button>
          </li>
        ))}
      </ul>
      <button
        type="button"
        class="button small conversation-more"
        hidden={items.length >= conversations.total.value}
        disabled={busy}
        onClick={() => {
          setBusy(true);
          void conversations.loadMore().finally(() => setBusy(false));
        }}
      >
        {m.conversations.more}
      </button>
    </nav>
  );
}
