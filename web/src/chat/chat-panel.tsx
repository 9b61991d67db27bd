import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { CollectionStore } from '../collection-store';
import { useUniqueId } from '../components/unique-id';
import { NARROW } from '../components/use-media';
import { now, t } from '../i18n/bind';
import { messages } from '../i18n/messages';
import type { KnowledgeStore } from '../knowledge-store';
import type { ChatSession } from './chat-session';
import { Composer } from './composer';
import { FilterBar } from './filter-bar';
import { ConversationHead } from './conversation-head';
import { ConversationList } from './conversation-list';
import { Turn } from './turn';

/** Where the list of conversations shows beside the chat without being asked for. */
const WIDE = '(min-width: 1101px)';

export interface ChatPanelProps {
  /** The session outlives the panel: the conversation survives a visit to another page. */
  session: ChatSession;
  store: KnowledgeStore;
  collections: CollectionStore;
}

/**
 * Asking questions: the conversation, the question box, the stream of each answer; the list
 * beside the chat opens earlier conversations, and a question asked while one is open
 * continues it.
 */
export function ChatPanel({ session, store, collections }: ChatPanelProps) {
  const titleId = useUniqueId('chat-title');
  const listId = useUniqueId('conversation-list');
  const [listOpen, setListOpen] = useState(() => matchMedia(WIDE).matches);
  const log = useRef<HTMLDivElement>(null);
  const prompt = useRef<HTMLTextAreaElement>(null);
  const m = messages();
  const shown = session.shown.value;
  const turns = session.turns.value;
  // Where the list, once opened, takes the chat's place.
  const closeListWhenNarrow = () => {
    if (matchMedia(NARROW).matches) setListOpen(false);
  };

  useLayoutEffect(() => {
    const toEnd = () => {
      if (log.current) log.current.scrollTop = log.current.scrollHeight;
    };
    return session.attach({
      focusPrompt: () => prompt.current?.focus(),
      atEnd: () => {
        const scroller = log.current;
        return (
          !!scroller && scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 80
        );
      },
      toEnd: () => requestAnimationFrame(toEnd),
      showTurn: () =>
        requestAnimationFrame(() =>
          log.current?.lastElementChild?.scrollIntoView({ block: 'nearest' }),
        ),
    });
  }, [session]);

  return (
    <section
      class="panel chat-panel"
      aria-labelledby={titleId}
      data-list={listOpen ? 'open' : 'closed'}
    >
      <h2 id={titleId} class="visually-hidden" tabindex={-1}>
        {m.chat.conversation}
      </h2>
      <ConversationHead
        session={session}
        store={store}
        collections={collections}
        listId={listId}
        listOpen={listOpen}
        setListOpen={setListOpen}
        onNew={() => {
          closeListWhenNarrow();
          session.newConversation();
        }}
      />
      <div class="chat-body">
        <ConversationList
          id={listId}
          conversations={session.conversations}
          onOpen={(chosen) => {
            closeListWhenNarrow();
            if (chosen.id !== session.current.value?.id) void session.open(chosen.id);
          }}
        />
        <div class="chat-main">
          <div class="conversation" role="log" aria-labelledby={titleId} tabindex={0} ref={log}>
            {shown.kind === 'opening' ? (
              <p class="loading">{m.conversations.opening}</p>
            ) : shown.kind === 'openFailed' ? (
              <p class="notice error" role="alert">
                {now(shown.message)}
              </p>
            ) : (
              turns.length === 0 && (
                <div class="empty chat-empty">
                  <p class="empty-title">{m.chat.introTitle}</p>
                  <p>{m.chat.intro}</p>
                </div>
              )
            )}
            {turns.map((turn) => (
              <Turn
                key={turn.key}
                turn={turn}
                announce={session.announce}
                collections={collections}
                onRefilter={(filters) => {
                  session.announce(t((m) => m.filters.removed));
                  void session.reask(turn.prompt, filters);
                }}
                onAskInFile={(file) => void session.askInFile(turn.prompt, file)}
              />
            ))}
          </div>
          <FilterBar filters={session.filters} />
          <Composer session={session} store={store} prompt={prompt} />
        </div>
      </div>
    </section>
  );
}
