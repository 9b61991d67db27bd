import type { CollectionStore } from '../collection-store';
import { confirmDialog } from '../components/confirm-dialog';
import { useUniqueId } from '../components/unique-id';
import { useStore } from '../components/use-store';
import { useApp } from '../context';
import { now } from '../i18n/bind';
import { messages } from '../i18n/messages';
import type { KnowledgeStore } from '../knowledge-store';
import { RecordActions } from '../record/record-actions';
import type { ChatSession } from './chat-session';
import { renameDialog } from './rename-dialog';

export interface ConversationHeadProps {
  session: ChatSession;
  store: KnowledgeStore;
  collections: CollectionStore;
  listId: string;
  listOpen: boolean;
  setListOpen(open: boolean): void;
  onNew(): void;
}

/** The open conversation's title and what it searched; rename, delete, a new one; the list. */
export function ConversationHead(props: ConversationHeadProps) {
  const { session, store, collections, listId, listOpen, setListOpen, onNew } = props;
  // The scope names files and collections as the files panel lists them.
  useStore(store);
  useStore(collections);
  const ctx = useApp();
  const titleId = useUniqueId('conversation-title');
  const m = messages();
  const open = session.current.value;

  async function rename(): Promise<void> {
    if (!open) return;
    const renamed = await renameDialog(ctx, open);
    if (renamed) session.renamed(renamed);
  }

  async function remove(): Promise<void> {
    if (!open) return;
    const sure = await confirmDialog((words) => ({
      title: words.conversations.deleteTitle(open.title),
      message: words.conversations.deleteMessage,
      confirm: words.conversations.deleteConfirm,
      danger: true,
    }));
    if (sure) await session.remove(open);
  }

  return (
    <div class="chat-head">
      <button
        type="button"
        class="button small list-toggle"
        aria-controls={listId}
        aria-expanded={listOpen}
        onClick={() => setListOpen(!listOpen)}
      >
        <span class="list-toggle-icon" aria-hidden="true">
          ☰
        </span>
        {m.conversations.showList}
      </button>
      <div class="chat-head-text">
        <p class="chat-head-title" id={titleId}>
          {open ? open.title : m.conversations.untitled}
        </p>
        <p class="chat-head-scope" hidden={!open}>
          {open && now(session.scope.describe(open))}
        </p>
      </div>
      <div class="chat-head-actions">
        <RecordActions conversation={open} />
        <button
          type="button"
          class="button small"
          hidden={!open}
          aria-label={open && m.conversations.renameNamed(open.title)}
          onClick={() => void rename()}
        >
          {m.conversations.rename}
        </button>
        <button
          type="button"
          class="button small danger-outline"
          hidden={!open}
          aria-label={open && m.conversations.deleteNamed(open.title)}
          onClick={() => void remove()}
        >
          {m.conversations.delete}
        </button>
        <button type="button" class="button small primary new-conversation" onClick={onNew}>
          {m.conversations.newConversation}
        </button>
      </div>
    </div>
  );
}
