import { ChatPanel } from '../chat/chat-panel';
import type { ChatSession } from '../chat/chat-session';
import type { CollectionStore } from '../collection-store';
import { useStore } from '../components/use-store';
import { FilesPanel } from '../files/files-panel';
import type { UploadQueue } from '../files/upload-queue';
import { formatInteger } from '../i18n/format';
import { messages } from '../i18n/messages';
import type { KnowledgeStore } from '../knowledge-store';

export type Pane = 'chat' | 'files';

export interface WorkspaceProps {
  store: KnowledgeStore;
  collections: CollectionStore;
  /** The chat and the uploads are made once per session: they outlive a visit to another page. */
  chat: ChatSession;
  uploads: UploadQueue;
  pane: Pane;
  showPane(pane: Pane): void;
}

/**
 * The files and the chat side by side; on a narrow screen one pane shows at a time and a pair
 * of toggle buttons switches them.
 */
export function Workspace(props: WorkspaceProps) {
  const { store, collections, chat, uploads, pane, showPane } = props;
  useStore(store);
  const m = messages();
  // Files in the whole collection (the panel shows a page of them).
  const counts = store.counts;
  const count = counts && counts.queued + counts.processing + counts.ready + counts.failed;
  return (
    <div class="workspace" data-pane={pane}>
      <div class="pane-tabs" role="group" aria-label={m.app.panes}>
        <button type="button" aria-pressed={pane === 'chat'} onClick={() => showPane('chat')}>
          {m.app.chat}
        </button>
        <button type="button" aria-pressed={pane === 'files'} onClick={() => showPane('files')}>
          <span>{count === undefined ? m.app.files : m.app.filesCount(formatInteger(count))}</span>
        </button>
      </div>
      <FilesPanel store={store} collections={collections} uploads={uploads} />
      <ChatPanel session={chat} store={store} collections={collections} />
    </div>
  );
}
