import type { ChatDone, ChatMessage, ChatRefusal, ChatSource, KnowledgeFile } from './api/services';
import { isAbort, type AppContext } from './context';
import { downloadLink } from './download';
import { h, replace, uid } from './dom';
import { collectionName, SHARED_COLLECTION_ID } from './collection-access';
import type { CollectionStore } from './collection-store';
import { isInProgress } from './file-status';
import { t, type Localized } from './i18n/bind';
import { codedText, failureMessage } from './i18n/failure';
import { formatList } from './i18n/format';
import type { Messages } from './i18n/messages';
import type { KnowledgeStore } from './knowledge-store';
import { createMarkdownView } from './render-markdown';

interface Streaming {
  controller: AbortController;
}

/**
 * Asking questions: the conversation, the question box, the stream of each answer. Questions
 * search the collection the files panel shows (or the files ticked in it), so that what the
 * answer draws on is what the user sees listed.
 */
export function createChatPanel(
  ctx: AppContext,
  store: KnowledgeStore,
  collections: CollectionStore,
): HTMLElement {
  const titleId = uid('chat-title');
  const promptId = uid('prompt');
  const hintId = uid('prompt-hint');
  const draftKey = `kbchat.draft.${ctx.me.id}`;
  let streaming: Streaming | undefined;

  const conversation = h('div', {
    class: 'conversation',
    role: 'log',
    'aria-labelledby': titleId,
    tabindex: 0,
  });
  const intro = h(
    'div',
    { class: 'empty chat-empty' },
    h(
      'p',
      { class: 'empty-title' },
      t((m) => m.chat.introTitle),
    ),
    h(
      'p',
      null,
      t((m) => m.chat.intro),
    ),
  );
  conversation.append(intro);

  const textarea = h('textarea', {
    id: promptId,
    name: 'prompt',
    rows: 2,
    required: true,
    placeholder: t((m) => m.chat.placeholder),
    enterkeyhint: 'send',
    'aria-describedby': hintId,
    props: { value: sessionStorage.getItem(draftKey) ?? '' },
    on: {
      input: () => saveDraft(),
      keydown: (event) => {
        if (event.key === 'Enter' && !event.shiftKey && !event.isComposing && !event.altKey) {
          event.preventDefault();
          form.requestSubmit();
        } else if (event.key === 'Escape' && streaming) {
          event.preventDefault();
          streaming.controller.abort();
        }
      },
    },
  });
  const send = h(
    'button',
    { type: 'submit', class: 'button primary' },
    t((m) => m.chat.send),
  );
  const stop = h(
    'button',
    {
      type: 'button',
      class: 'button danger',
      hidden: true,
      on: { click: () => streaming?.controller.abort() },
    },
    t((m) => m.chat.stop),
  );
  // What happens to the answer, told to screen readers once per step: the answer itself
  // streams into a region that is busy until it ends, so it is not read out token by token.
  const announcer = h('p', { class: 'visually-hidden', role: 'status' });
  const scope = h('div', { class: 'scope' });
  const form = h(
    'form',
    {
      class: 'composer',
      on: {
        submit: (event) => {
          event.preventDefault();
          void ask();
        },
      },
    },
    scope,
    h(
      'label',
      { for: promptId, class: 'composer-label' },
      t((m) => m.chat.yourQuestion),
    ),
    h('div', { class: 'composer-row' }, textarea, send, stop),
    h(
      'p',
      { class: 'hint', id: hintId },
      t((m) => m.chat.hint),
    ),
    announcer,
  );

  function saveDraft(): void {
    if (textarea.value) sessionStorage.setItem(draftKey, textarea.value);
    else sessionStorage.removeItem(draftKey);
  }

  function renderScope(): void {
    const files = store.files;
    const chosen = store.selectedFiles();
    const collection = store.collection;
    const where =
      collection &&
      !collection.shared &&
      h(
        'span',
        { class: 'scope-collection' },
        t((m) => m.chat.inCollection(collection.name)),
      );
    if (chosen.length > 0) {
      const names = chosen.map((file) => file.name);
      replace(
        scope,
        where,
        h(
          'span',
          null,
          t((m) => m.chat.searchingOnly(chosen.length)),
          h(
            'strong',
            null,
            t(() => formatList(names)),
          ),
        ),
        h(
          'button',
          { type: 'button', class: 'link-button', on: { click: () => store.clearSelection() } },
          t((m) => m.chat.searchAll),
        ),
      );
    } else if (files && files.length === 0) {
      replace(
        scope,
        where,
        h(
          'span',
          null,
          t((m) => m.chat.emptyKnowledgeBase),
        ),
      );
    } else {
      // Only ready files are searched: files still being processed are not counted.
      const count = files ? store.searchableFiles().length : undefined;
      const processing = (files ?? []).filter(isInProgress).length;
      replace(
        scope,
        where,
        h(
          'span',
          null,
          t((m) =>
            count === 0
              ? m.chat.noneReady(processing)
              : count === 1
                ? m.chat.searchingOne
                : m.chat.searchingAll(count),
          ),
        ),
      );
    }
  }
  store.subscribe(renderScope);
  renderScope();

  function setBusy(busy: boolean): void {
    send.disabled = busy;
    stop.hidden = !busy;
    form.classList.toggle('busy', busy);
  }

  async function ask(): Promise<void> {
    const prompt = textarea.value;
    if (streaming || !prompt.trim()) return;
    const files = store.selectedFiles();
    const collection = store.collection;
    intro.remove();
    const turn = createTurn(ctx, prompt, files, conversation, announce);
    conversation.append(turn.element);
    turn.element.scrollIntoView({ block: 'nearest' });
    textarea.value = '';
    saveDraft();
    const controller = new AbortController();
    const abortOnTeardown = () => controller.abort();
    ctx.signal.addEventListener('abort', abortOnTeardown);
    streaming = { controller };
    setBusy(true);
    try {
      const stream = await ctx.api.chat.Chat(
        {
          body: {
            prompt,
            file_id: files.length > 0 ? files.map((file) => file.id).join(',') : undefined,
            collection_id: collection?.id,
          },
        },
        { signal: controller.signal },
      );
      for await (const item of stream) {
        // The collection was deleted, or the user removed from it, since the page listed it:
        // listed again, the workspace falls back to the shared collection.
        if (item.event === 'message' && item.data.code === 'collections_unavailable') {
          void collections.refresh();
        }
        if (item.event === 'message') turn.message(item.data);
        else if (item.event === 'sources') turn.sources(item.data);
        else if (item.event === 'refusal') turn.explain(item.data);
        else if (item.event === 'done') turn.done(item.data);
      }
      turn.finish();
    } catch (err) {
      if (isAbort(err)) turn.stopped();
      else {
        const failure = ctx.fail(err);
        if (failure.status === 401) {
          // Back to the login page; the question comes back to the box, to send again.
          turn.element.remove();
          if (!textarea.value) textarea.value = prompt;
          saveDraft();
        } else turn.failed(failureMessage(failure));
      }
    } finally {
      ctx.signal.removeEventListener('abort', abortOnTeardown);
      streaming = undefined;
      setBusy(false);
    }
  }

  function announce(text: Localized): void {
    replace(announcer, text);
  }

  return h(
    'section',
    { class: 'panel chat-panel', 'aria-labelledby': titleId },
    h(
      'h2',
      { id: titleId, class: 'visually-hidden', tabindex: -1 },
      t((m) => m.chat.conversation),
    ),
    conversation,
    form,
  );
}

interface Turn {
  element: HTMLElement;
  message(message: ChatMessage): void;
  sources(sources: ChatSource[]): void;
  /** Why the service refused (the event after its error message): the closest passage found. */
  explain(refusal: ChatRefusal): void;
  /** The stream's end: how the answer was made (the whole text of chosen files, or retrieval). */
  done(done: ChatDone): void;
  finish(): void;
  stopped(): void;
  failed(reason: Localized): void;
}

/** Where a source was found: its section's headings when it has them (formats without pages). */
const sourceMeta = (source: ChatSource, m: Messages) =>
  source.section
    ? m.chat.sourceSectionMeta(source.section, source.similarity)
    : m.chat.sourceMeta(source.page, source.similarity);

/** The echoed prompt: the rules, the retrieved context and the question. */
const isPromptEcho = (content: string) =>
  content.includes('<context>') && content.includes('</context>');

function createTurn(
  ctx: AppContext,
  prompt: string,
  files: KnowledgeFile[],
  scroller: HTMLElement,
  announce: (text: Localized) => void,
): Turn {
  let first = true;
  let answer = '';
  let scheduled = false;
  let ended = false;

  const status = h('p', { class: 'answer-status' });
  const contextText = h('pre', { class: 'context-text' });
  const context = h(
    'details',
    { class: 'context', hidden: true },
    h(
      'summary',
      null,
      t((m) => m.chat.context),
    ),
    contextText,
  );
  const markdown = h('div', { class: 'markdown' });
  const view = createMarkdownView(markdown);
  const notice = h('div', { class: 'answer-notice', hidden: true });
  const mode = h('p', { class: 'answer-mode', hidden: true });
  const sourceList = h('ol', { class: 'source-list' });
  const sources = h(
    'section',
    { class: 'sources', hidden: true },
    h(
      'h3',
      null,
      t((m) => m.chat.sources),
    ),
    sourceList,
  );
  const answerBox = h(
    'div',
    { class: 'bubble answer', 'data-state': 'waiting' },
    h(
      'p',
      { class: 'speaker' },
      t((m) => m.chat.answer),
    ),
    context,
    markdown,
    notice,
    status,
    mode,
    sources,
  );
  const element = h(
    'article',
    { class: 'turn', 'aria-busy': 'true' },
    h(
      'div',
      { class: 'bubble question' },
      h(
        'p',
        { class: 'speaker' },
        t((m) => m.chat.you),
      ),
      h('p', { class: 'question-text' }, prompt),
      files.length > 0 &&
        h(
          'p',
          { class: 'question-scope' },
          t((m) => m.chat.askedIn(formatList(files.map((file) => file.name)))),
        ),
    ),
    answerBox,
  );

  const nearBottom = () => scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 80;

  function render(): void {
    scheduled = false;
    const follow = nearBottom();
    view.update(answer);
    if (follow) scroller.scrollTop = scroller.scrollHeight;
  }

  function setState(state: string, text?: Localized): void {
    const changed = answerBox.dataset.state !== state;
    answerBox.dataset.state = state;
    status.hidden = text === undefined;
    replace(status, text);
    if (changed && text) announce(text);
  }
  const searching = t((m) => m.chat.searching);
  setState('waiting', searching);
  announce(searching);

  function end(): void {
    ended = true;
    render();
    element.setAttribute('aria-busy', 'false');
  }

  function showNotice(kind: 'refusal' | 'error' | 'stopped', text: Localized | string): void {
    notice.hidden = false;
    notice.className = `answer-notice ${kind}`;
    replace(
      notice,
      h(
        'p',
        null,
        h(
          'strong',
          null,
          t((m) =>
            kind === 'refusal'
              ? m.chat.noAnswer
              : kind === 'stopped'
                ? m.chat.stopped
                : m.chat.failed,
          ),
        ),
        text,
      ),
    );
  }

  return {
    element,
    message({ content, type, code }) {
      if (ended) return;
      if (type === 'error') {
        // The service answers no question it has no knowledge for, and reports failures the
        // same way: one message of type "error" that ends the stream.
        // Shown in the page's language by its code; an unknown code shows the service's words.
        setState(answer ? 'failed' : 'refused');
        showNotice(answer ? 'error' : 'refusal', codedText(code, content));
        announce(t((m) => (answer ? m.chat.announceFailed : m.chat.announceRefused)));
        first = false;
        return;
      }
      if (first && isPromptEcho(content)) {
        contextText.textContent = content;
        context.hidden = false;
        setState(
          'streaming',
          t((m) => m.chat.writing),
        );
      } else {
        answer += content;
        setState(
          'streaming',
          t((m) => m.chat.writing),
        );
        if (!scheduled) {
          scheduled = true;
          requestAnimationFrame(() => !ended && render());
        }
      }
      first = false;
    },
    sources(list) {
      sources.hidden = list.length === 0;
      replace(
        sourceList,
        list.map((source, index) => {
          const link = downloadLink(
            ctx,
            { id: source.file_id, name: source.file_name },
            {},
            source.file_name,
          );
          // Files of the shared collection are the usual case: only others name theirs.
          const { collection_id: id, collection_name: name } = source;
          return h(
            'li',
            { value: index + 1 },
            link,
            h(
              'span',
              { class: 'source-meta' },
              t((m) => sourceMeta(source, m)),
            ),
            id &&
              id !== SHARED_COLLECTION_ID &&
              h('span', { class: 'badge source-collection' }, collectionName({ id, name })),
          );
        }),
      );
    },
    done(done) {
      // A chat about chosen files reads them whole when they fit, else their best pages.
      if (done.mode === 'retrieval') return;
      mode.hidden = false;
      replace(
        mode,
        t((m) => (done.mode === 'full_text' ? m.chat.modeFullText : m.chat.modeFileRetrieval)),
      );
    },
    explain({ candidates, threshold }) {
      const closest = candidates[0];
      notice.append(
        h(
          'p',
          { class: 'refusal-reason' },
          t((m) =>
            closest
              ? m.chat.refusalClosest(
                  closest.file_name,
                  closest.section ?? null,
                  closest.page,
                  closest.similarity,
                  threshold,
                )
              : m.chat.refusalNothing(threshold),
          ),
        ),
      );
    },
    finish() {
      if (answerBox.dataset.state === 'streaming' || answerBox.dataset.state === 'waiting') {
        if (answer.trim()) {
          setState('done');
          const count = sourceList.childElementCount;
          announce(t((m) => m.chat.announceDone(count)));
        } else {
          setState('refused');
          showNotice(
            'refusal',
            t((m) => m.chat.nothingSent),
          );
          announce(t((m) => m.chat.announceRefused));
        }
      } else status.hidden = true;
      end();
    },
    stopped() {
      setState('stopped');
      showNotice(
        'stopped',
        t((m) => (answer ? m.chat.incomplete : m.chat.nothingReceived)),
      );
      announce(t((m) => m.chat.announceStopped));
      end();
    },
    failed(reason) {
      setState('failed');
      showNotice('error', reason);
      announce(t((m) => m.chat.announceFailed));
      end();
    },
  };
}
