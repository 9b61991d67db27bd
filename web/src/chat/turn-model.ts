import { batch, signal } from '@preact/signals';
import type {
  ChatDone,
  ChatMessage,
  ChatRefusal,
  ChatSource,
  ConversationMessage,
  Feedback,
} from '../api/services';
import { t, type Localized } from '../i18n/bind';
import { codedText } from '../i18n/failure';
import { asStreamed, storedSupport, type SentenceSupport } from './stored-answer';
import type { Filters } from './filter-bar';

export type TurnState =
  'waiting' | 'streaming' | 'done' | 'refused' | 'failed' | 'stopped' | 'incomplete';

/** What the box under an answer says when it is not a plain answer. */
export interface TurnNotice {
  kind: 'refusal' | 'error' | 'stopped' | 'incomplete';
  text: Localized;
  /** Why the service refused (its `refusal` event): the closest passage it found, if any. */
  refusal?: RefusalReason;
}

export interface RefusalReason {
  closest: ChatRefusal['candidates'][number] | undefined;
  similarity: number | null;
  threshold: number;
}

export interface TurnHooks {
  /** Tells screen readers what happens to the answer, once per step. */
  announce(text: Localized): void;
  /** Whether the conversation is scrolled to its end (a growing answer then keeps it there). */
  atEnd(): boolean;
  toEnd(): void;
}

/** The echoed prompt: the rules, the retrieved context and the question. */
const isPromptEcho = (content: string) =>
  content.includes('<context>') && content.includes('</context>');

let turns = 0;

/**
 * One question and its answer, as the stream tells it (or as a stored turn ended). The answer
 * is shown again at most once per animation frame, however fast it streams.
 */
export function createTurn(prompt: string, fileNames: readonly string[], hooks: TurnHooks) {
  let received = '';
  let first = true;
  let scheduled = false;
  let follow = false;
  let messageId: string | undefined;
  const state = signal<TurnState>('waiting');
  const status = signal<Localized | undefined>(undefined);
  const answer = signal('');
  const echo = signal<string | undefined>(undefined);
  const notice = signal<TurnNotice | undefined>(undefined);
  const mode = signal<ChatDone['mode'] | null>(null);
  const sources = signal<readonly ChatSource[]>([]);
  /** The filters the service read from the question (its `filters` event), if any. */
  const proposed = signal<Filters | undefined>(undefined);
  /** Each sentence of the answer checked against its sources (told with `done`). */
  const support = signal<readonly SentenceSupport[] | null>(null);
  const ended = signal(false);
  /** Feedback is asked for once the turn has ended and is known to the service. */
  const feedback = signal<{ messageId: string; initial: Feedback | null } | undefined>(undefined);

  function show(): void {
    scheduled = false;
    follow = hooks.atEnd();
    answer.value = received;
  }

  function setState(next: TurnState, text?: Localized): void {
    const changed = state.value !== next;
    state.value = next;
    status.value = text;
    if (changed && text) hooks.announce(text);
  }

  function showNotice(kind: TurnNotice['kind'], text: Localized): void {
    notice.value = { kind, text };
  }

  function end(initial: Feedback | null = null): void {
    batch(() => {
      ended.value = true;
      show();
      if (messageId) feedback.value = { messageId, initial };
    });
  }

  const searching = t((m) => m.chat.searching);
  setState('waiting', searching);
  hooks.announce(searching);

  return {
    key: (turns += 1),
    prompt,
    fileNames,
    state,
    status,
    answer,
    echo,
    notice,
    mode,
    sources,
    support,
    ended,
    feedback,
    proposed,

    proposeFilters(filters: Filters): void {
      proposed.value = filters;
    },

    /** The answer as shown is on the page: keep the conversation at its end if it was. */
    answerShown(): void {
      if (follow) hooks.toEnd();
      follow = false;
    },

    message({ content, type, code }: ChatMessage): void {
      if (ended.value) return;
      if (type === 'error') {
        // The service answers no question it has no knowledge for, and reports failures the
        // same way: one message of type "error" that ends the stream. Shown in the page's
        // language by its code; an unknown code shows the service's words.
        setState(received ? 'failed' : 'refused');
        showNotice(received ? 'error' : 'refusal', codedText(code, content));
        hooks.announce(t((m) => (received ? m.chat.announceFailed : m.chat.announceRefused)));
        first = false;
        return;
      }
      if (first && isPromptEcho(content)) echo.value = content;
      else {
        received += content;
        if (!scheduled) {
          scheduled = true;
          requestAnimationFrame(() => !ended.value && show());
        }
      }
      setState(
        'streaming',
        t((m) => m.chat.writing),
      );
      first = false;
    },

    setSources(list: ChatSource[]): void {
      sources.value = list;
    },

    /** The stream's end: how the answer was made (the whole text of chosen files, or retrieval). */
    done(done: ChatDone): void {
      mode.value = done.mode;
      support.value = done.support ?? null;
    },

    /** The stored turn this answer is (the stream's `conversation` event): feedback names it. */
    identify(id: string): void {
      messageId = id;
    },

    /** Why the service refused (the event after its error message): the closest passage found. */
    explain({ candidates, threshold, best_similarity }: ChatRefusal): void {
      const shown = notice.value;
      if (!shown) return;
      notice.value = {
        ...shown,
        refusal: { closest: candidates[0], similarity: best_similarity, threshold },
      };
    },

    finish(): void {
      if (state.value === 'streaming' || state.value === 'waiting') {
        if (received.trim()) {
          setState('done');
          const count = sources.value.length;
          hooks.announce(t((m) => m.chat.announceDone(count)));
        } else {
          setState('refused');
          showNotice(
            'refusal',
            t((m) => m.chat.nothingSent),
          );
          hooks.announce(t((m) => m.chat.announceRefused));
        }
      } else status.value = undefined;
      end();
    },

    stopped(): void {
      setState('stopped');
      const any = received !== '';
      showNotice(
        'stopped',
        t((m) => (any ? m.chat.incomplete : m.chat.nothingReceived)),
      );
      hooks.announce(t((m) => m.chat.announceStopped));
      end();
    },

    failed(reason: Localized): void {
      setState('failed');
      showNotice('error', reason);
      hooks.announce(t((m) => m.chat.announceFailed));
      end();
    },

    /** Shows a stored turn of a conversation opened again, as it ended. */
    restore(message: ConversationMessage): void {
      messageId = message.id;
      first = false;
      if (message.status === 'refused' || message.status === 'failed') {
        setState(message.status);
        showNotice(
          message.status === 'refused' ? 'refusal' : 'error',
          codedText(message.code ?? undefined, message.answer),
        );
      } else {
        received = asStreamed(message.answer);
        sources.value = message.sources;
        mode.value = message.mode;
        support.value = storedSupport(message);
        if (message.status === 'incomplete') {
          setState('incomplete');
          showNotice(
            'incomplete',
            t((m) => m.conversations.cutOff),
          );
        } else setState('done');
      }
      end(message.feedback);
    },
  };
}

export type Turn = ReturnType<typeof createTurn>;
