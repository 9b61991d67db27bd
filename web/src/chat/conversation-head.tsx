import type { ComponentChildren } from 'preact';
import type { CollectionStore } from '../collection-store';
import { confirmDialog } from '../components/confirm-dialog';
import { MenuButton, useActionLook } from '../components/menu-button';
import { useUniqueId } from '../components/unique-id';
import { HEAD_CROWDED, useMedia } from '../components/use-media';
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
  const crowded = useMedia(HEAD_CROWDED);
  const scope = open && now(session.scope.describe(open));

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

  // Where the head is crowded (a phone, two panes on a small screen) the conversation's own
  // actions go under More; on a phone the list and New conversation also show their marks
  // alone (phone.css; their names still read out), so that the head keeps to one row.
  const tools = (
    <>
      <RecordActions conversation={open} />
      <HeadButton
        hidden={!open}
        label={open && m.conversations.renameNamed(open.title)}
        onClick={() => void rename()}
      >
        {m.conversations.rename}
      </HeadButton>
      <HeadButton
        danger
        hidden={!open}
        label={open && m.conversations.deleteNamed(open.title)}
        onClick={() => void remove()}
      >
        {m.conversations.delete}
      </HeadButton>
    </>
  );
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
        <span class="head-words">{m.conversations.showList}</span>
      </button>
      <div class="chat-head-text">
        <p class="chat-head-title" id={titleId}>
          {open ? open.title : m.conversations.untitled}
        </p>
        <p class="chat-head-scope" hidden={!open} title={scope}>
          {scope}
        </p>
      </div>
      <div class="chat-head-actions">
        {!crowded
          ? tools
          : open && (
              <MenuButton label={m.app.more} name={m.conversations.moreNamed(open.title)}>
                {tools}
              </MenuButton>
            )}
        <button type="button" class="button small primary new-conversation" onClick={onNew}>
          <span class="new-conversation-mark" aria-hidden="true">
            +
          </span>
          <span class="head-words">{m.conversations.newConversation}</span>
        </button>
      </div>
    </div>
  );
}

interface HeadButtonProps {
  children: ComponentChildren;
  /** What it does to which conversation ("Rename: Annual leave"). */
  label: string | undefined;
  danger?: boolean;
  hidden: boolean;
  onClick(): void;
}

/** Rename or Delete: a small button in the head, an item of its menu on a phone. */
function HeadButton({ children, label, danger, hidden, onClick }: HeadButtonProps) {
  const look = useActionLook(
    danger ? 'button small danger-outline' : 'button small',
    danger ? 'menu-item danger' : 'menu-item',
  );
  return (
    <button type="button" {...look} hidden={hidden} aria-label={label} onClick={onClick}>
      {children}
    </button>
  );
}
