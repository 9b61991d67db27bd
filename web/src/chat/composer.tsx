import type { RefObject } from 'preact';
import { StatusRegion } from '../components/status-region';
import { useUniqueId } from '../components/unique-id';
import { messages } from '../i18n/messages';
import type { KnowledgeStore } from '../knowledge-store';
import type { ChatSession } from './chat-session';
import { Scope } from './scope';

export interface ComposerProps {
  session: Pick<ChatSession, 'draft' | 'streaming' | 'announcement' | 'ask' | 'stop'>;
  store: KnowledgeStore;
  prompt: RefObject<HTMLTextAreaElement | null>;
}

/**
 * The question box: Enter sends, Shift+Enter starts a new line (and Enter while an input
 * method composes a word is the method's); Escape stops an answer on its way.
 */
export function Composer({ session, store, prompt }: ComposerProps) {
  const promptId = useUniqueId('prompt');
  const hintId = useUniqueId('prompt-hint');
  const m = messages();
  const busy = session.streaming.value !== undefined;
  const announcement = session.announcement.value;
  return (
    <form
      class={busy ? 'composer busy' : 'composer'}
      onSubmit={(event) => {
        event.preventDefault();
        void session.ask();
      }}
    >
      <Scope store={store} />
      <label for={promptId} class="composer-label">
        {m.chat.yourQuestion}
      </label>
      <div class="composer-row">
        <textarea
          ref={prompt}
          id={promptId}
          name="prompt"
          rows={2}
          required
          placeholder={m.chat.placeholder}
          enterkeyhint="send"
          aria-describedby={hintId}
          value={session.draft.text.value}
          onInput={(event) => session.draft.set(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey && !event.isComposing && !event.altKey) {
              event.preventDefault();
              event.currentTarget.form?.requestSubmit();
            } else if (event.key === 'Escape' && busy) {
              event.preventDefault();
              session.stop();
            }
          }}
        />
        <button type="submit" class="button primary" disabled={busy}>
          {m.chat.send}
        </button>
        <button type="button" class="button danger" hidden={!busy} onClick={() => session.stop()}>
          {m.chat.stop}
        </button>
      </div>
      <p class="hint" id={hintId}>
        {m.chat.hint}
      </p>
      <StatusRegion text={announcement} />
    </form>
  );
}
