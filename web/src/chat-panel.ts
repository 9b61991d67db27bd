import type { ChatMessage, ChatSource, KnowledgeFile } from './api/services';
import { isAbort, type AppContext } from './context';
import { downloadLink } from './download';
import { h, replace, uid } from './dom';
import { plural } from './format';
import type { KnowledgeStore } from './knowledge-store';
import { renderMarkdown } from './render-markdown';

interface Streaming {
  controller: AbortController;
}

/** Asking questions: the conversation, the question box, the stream of each answer. */
export function createChatPanel(ctx: AppContext, store: KnowledgeStore): HTMLElement {
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
    h('p', { class: 'empty-title' }, 'Ask about your documents'),
    h(
      'p',
      null,
      'Answers come only from the files in the knowledge base, and list the pages they were found on. Select files in the knowledge base to search only those.',
    ),
  );
  conversation.append(intro);

  const textarea = h('textarea', {
    id: promptId,
    name: 'prompt',
    rows: 2,
    required: true,
    placeholder: 'Ask a question…',
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
  const send = h('button', { type: 'submit', class: 'button primary' }, 'Send');
  const stop = h(
    'button',
    {
      type: 'button',
      class: 'button danger',
      hidden: true,
      on: { click: () => streaming?.controller.abort() },
    },
    'Stop',
  );
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
    h('label', { for: promptId, class: 'composer-label' }, 'Your question'),
    h('div', { class: 'composer-row' }, textarea, send, stop),
    h('p', { class: 'hint', id: hintId }, 'Enter to send, Shift+Enter for a new line.'),
  );

  function saveDraft(): void {
    if (textarea.value) sessionStorage.setItem(draftKey, textarea.value);
    else sessionStorage.removeItem(draftKey);
  }

  function renderScope(): void {
    const files = store.files;
    const chosen = store.selectedFiles();
    if (chosen.length > 0) {
      replace(
        scope,
        h(
          'span',
          null,
          `Searching ${chosen.length === 1 ? 'only' : `only these ${chosen.length} files`}: `,
          h('strong', null, chosen.map((file) => file.name).join(', ')),
        ),
        h(
          'button',
          { type: 'button', class: 'link-button', on: { click: () => store.clearSelection() } },
          'Search all files',
        ),
      );
    } else if (files && files.length === 0) {
      replace(scope, h('span', null, 'The knowledge base is empty: upload a PDF first.'));
    } else {
      replace(
        scope,
        h(
          'span',
          null,
          files?.length === 1
            ? 'Searching the one file.'
            : `Searching all ${files ? plural(files.length, 'file') : 'files'}.`,
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
    intro.remove();
    const turn = createTurn(ctx, prompt, files, conversation);
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
          },
        },
        { signal: controller.signal },
      );
      for await (const item of stream) {
        if (item.event === 'message') turn.message(item.data);
        else if (item.event === 'sources') turn.sources(item.data);
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
        } else turn.failed(failure.detail);
      }
    } finally {
      ctx.signal.removeEventListener('abort', abortOnTeardown);
      streaming = undefined;
      setBusy(false);
    }
  }

  return h(
    'section',
    { class: 'panel chat-panel', 'aria-labelledby': titleId },
    h('h2', { id: titleId, class: 'visually-hidden', tabindex: -1 }, 'Conversation'),
    conversation,
    form,
  );
}

interface Turn {
  element: HTMLElement;
  message(message: ChatMessage): void;
  sources(sources: ChatSource[]): void;
  finish(): void;
  stopped(): void;
  failed(detail: string): void;
}

/** The echoed prompt: the rules, the retrieved context and the question. */
const isPromptEcho = (content: string) =>
  content.includes('<context>') && content.includes('</context>');

function createTurn(
  ctx: AppContext,
  prompt: string,
  files: KnowledgeFile[],
  scroller: HTMLElement,
): Turn {
  let first = true;
  let answer = '';
  let scheduled = false;
  let ended = false;

  const status = h('p', { class: 'answer-status' }, 'Searching the knowledge base…');
  const contextText = h('pre', { class: 'context-text' });
  const context = h(
    'details',
    { class: 'context', hidden: true },
    h('summary', null, 'Prompt and retrieved context'),
    contextText,
  );
  const markdown = h('div', { class: 'markdown' });
  const notice = h('div', { class: 'answer-notice', hidden: true });
  const sourceList = h('ol', { class: 'source-list' });
  const sources = h(
    'section',
    { class: 'sources', hidden: true },
    h('h3', null, 'Sources'),
    sourceList,
  );
  const answerBox = h(
    'div',
    { class: 'bubble answer', 'data-state': 'waiting' },
    h('p', { class: 'speaker' }, 'Answer'),
    context,
    markdown,
    notice,
    status,
    sources,
  );
  const element = h(
    'article',
    { class: 'turn', 'aria-busy': 'true' },
    h(
      'div',
      { class: 'bubble question' },
      h('p', { class: 'speaker' }, 'You'),
      h('p', { class: 'question-text' }, prompt),
      files.length > 0 &&
        h('p', { class: 'question-scope' }, `In: ${files.map((file) => file.name).join(', ')}`),
    ),
    answerBox,
  );

  const nearBottom = () => scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 80;

  function render(): void {
    scheduled = false;
    const follow = nearBottom();
    replace(markdown, renderMarkdown(answer));
    if (follow) scroller.scrollTop = scroller.scrollHeight;
  }

  function setState(state: string, text?: string): void {
    answerBox.dataset.state = state;
    status.hidden = text === undefined;
    status.textContent = text ?? '';
  }

  function end(): void {
    ended = true;
    render();
    element.setAttribute('aria-busy', 'false');
  }

  function showNotice(kind: 'refusal' | 'error' | 'stopped', text: string): void {
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
          kind === 'refusal' ? 'No answer. ' : kind === 'stopped' ? 'Stopped. ' : 'Failed. ',
        ),
        text,
      ),
    );
  }

  return {
    element,
    message({ content, type }) {
      if (ended) return;
      if (type === 'error') {
        // The service answers no question it has no knowledge for, and reports failures the
        // same way: one message of type "error" that ends the stream.
        setState(answer ? 'failed' : 'refused');
        showNotice(answer ? 'error' : 'refusal', content);
        first = false;
        return;
      }
      if (first && isPromptEcho(content)) {
        contextText.textContent = content;
        context.hidden = false;
        setState('streaming', 'Writing the answer…');
      } else {
        answer += content;
        setState('streaming', 'Writing the answer…');
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
          return h(
            'li',
            { value: index + 1 },
            link,
            h(
              'span',
              { class: 'source-meta' },
              `page ${source.page} · similarity ${source.similarity.toFixed(2)}`,
            ),
          );
        }),
      );
    },
    finish() {
      if (answerBox.dataset.state === 'streaming' || answerBox.dataset.state === 'waiting') {
        if (answer.trim()) setState('done');
        else {
          setState('refused');
          showNotice('refusal', 'The service sent no answer.');
        }
      } else status.hidden = true;
      end();
    },
    stopped() {
      setState('stopped');
      showNotice('stopped', answer ? 'The answer above is incomplete.' : 'No answer was received.');
      end();
    },
    failed(detail) {
      setState('failed');
      showNotice('error', detail);
      end();
    },
  };
}
