import type {
  ChatDone,
  ChatMessage,
  ChatRefusal,
  ChatSource,
  Conversation,
  ConversationMessage,
  Feedback,
  KnowledgeFile,
} from './api/services';
import { isAbort, type AppContext } from './context';
import { createConversationList } from './conversation-list';
import { confirmDialog } from './components/confirm-dialog';
import { renameDialog } from './chat/rename-dialog';
import { asStreamed } from './chat/stored-answer';
import { downloadLink } from './download';
import { h, replace, uid } from './dom';
import { collectionName, SHARED_COLLECTION_ID } from './collection-access';
import type { CollectionStore } from './collection-store';
import { createFeedback } from './feedback';
import { isInProgress } from './file-status';
import { localizeAttribute, t, type Localized } from './i18n/bind';
import { codedText, failureMessage, failureText } from './i18n/failure';
import { formatList } from './i18n/format';
import type { Messages } from './i18n/messages';
import type { KnowledgeStore } from './knowledge-store';
import { onLocaleChange } from './i18n/locale';
import { createMarkdownView } from './markdown/markdown-view';

interface Streaming {
  controller: AbortController;
}

/** Where the list of conversations shows beside the chat without being asked for. */
const WIDE = '(min-width: 1101px)';
/** Where the list, once opened, takes the chat's place. */
const NARROW = '(max-width: 860px)';

/**
 * Asking questions: the conversation, the question box, the stream of each answer. Questions
 * search the collection the files panel shows (or the files ticked in it), so that what the
 * answer draws on is what the user sees listed. Every question is a turn of a conversation
 * the service keeps: the list beside the chat opens earlier ones, and a question asked while
 * one is open continues it (its follow-ups are understood in its light).
 */
export function createChatPanel(
  ctx: AppContext,
  store: KnowledgeStore,
  collections: CollectionStore,
): HTMLElement {
  const titleId = uid('chat-title');
  const promptId = uid('prompt');
  const hintId = uid('prompt-hint');
  const listId = uid('conversation-list');
  const headTitleId = uid('conversation-title');
  const draftKey = `kbchat.draft.${ctx.me.id}`;
  const openKey = `kbchat.conversation.${ctx.me.id}`;
  let streaming: Streaming | undefined;
  /** The open conversation; undefined for a new one that no question has started yet. */
  let current: Conversation | undefined;
  /** Bumped whenever another conversation is shown: a late answer then leaves it alone. */
  let shown = 0;
  let opening: AbortController | undefined;
  /** The scope of a conversation just opened, applied to the files panel once it is loaded. */
  let pendingScope: { collection?: string; files: string[] } | undefined;
  /** Names of files a conversation searched that the files panel does not list (null: gone). */
  const fileNames = new Map<string, string | null>();

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

  // ---- the conversation's header and the list beside it -----------------------------------
  const list = createConversationList(ctx, (chosen) => {
    if (matchMedia(NARROW).matches) setListOpen(false);
    if (chosen.id !== current?.id) void openConversation(chosen.id);
  });
  list.element.id = listId;
  const listToggle = h(
    'button',
    {
      type: 'button',
      class: 'button small list-toggle',
      'aria-controls': listId,
      on: { click: () => setListOpen(panel.dataset.list !== 'open') },
    },
    h('span', { class: 'list-toggle-icon', 'aria-hidden': 'true' }, '☰'),
    t((m) => m.conversations.showList),
  );
  const headTitle = h('p', { class: 'chat-head-title', id: headTitleId });
  const headScope = h('p', { class: 'chat-head-scope', hidden: true });
  const renameButton = h(
    'button',
    {
      type: 'button',
      class: 'button small',
      hidden: true,
      on: { click: () => void rename() },
    },
    t((m) => m.conversations.rename),
  );
  const deleteButton = h(
    'button',
    {
      type: 'button',
      class: 'button small danger-outline',
      hidden: true,
      on: { click: () => void remove() },
    },
    t((m) => m.conversations.delete),
  );
  const newButton = h(
    'button',
    {
      type: 'button',
      class: 'button small primary new-conversation',
      on: { click: () => newConversation() },
    },
    t((m) => m.conversations.newConversation),
  );
  const head = h(
    'div',
    { class: 'chat-head' },
    listToggle,
    h('div', { class: 'chat-head-text' }, headTitle, headScope),
    h('div', { class: 'chat-head-actions' }, renameButton, deleteButton, newButton),
  );

  function setListOpen(open: boolean): void {
    panel.dataset.list = open ? 'open' : 'closed';
    listToggle.setAttribute('aria-expanded', String(open));
  }

  function renderHead(): void {
    const open = current;
    replace(headTitle, open ? open.title : t((m) => m.conversations.untitled));
    renameButton.hidden = deleteButton.hidden = !open;
    if (open) {
      localizeAttribute(
        renameButton,
        'aria-label',
        t((m) => m.conversations.renameNamed(open.title)),
      );
      localizeAttribute(
        deleteButton,
        'aria-label',
        t((m) => m.conversations.deleteNamed(open.title)),
      );
    }
    headScope.hidden = !open;
    replace(headScope, open && scopeText(open));
  }

  /** What the conversation searched (its latest turn's scope), named as the reader knows it. */
  function scopeText(open: Conversation): Localized {
    const files = open.file_id ?? [];
    if (files.length > 0) {
      lookUpFiles(files);
      const names = files
        .map((id) => store.fileById(id)?.name ?? fileNames.get(id))
        .filter((name): name is string => typeof name === 'string');
      const unknown = files.length - names.length;
      return t((m) => {
        const shownNames = unknown > 0 ? [...names, m.conversations.unknownFiles(unknown)] : names;
        return m.conversations.scopeFiles(files.length, formatList(shownNames));
      });
    }
    const ids = open.collection_id ?? [];
    if (ids.length === 0) return t((m) => m.conversations.scopeAll);
    return t((m) => {
      const names = ids.map((id) =>
        id === SHARED_COLLECTION_ID
          ? m.collections.shared
          : `“${collections.byId(id)?.name ?? '…'}”`,
      );
      return ids.length === 1
        ? m.conversations.scopeCollection(names[0]!)
        : m.conversations.scopeCollections(formatList(names));
    });
  }

  let lookingUp = false;
  function lookUpFiles(ids: string[]): void {
    const missing = ids.filter((id) => !store.fileById(id) && !fileNames.has(id));
    if (missing.length === 0 || lookingUp) return;
    lookingUp = true;
    void (async () => {
      try {
        const found = await ctx.api.knowledge.GetList(
          { file_id: missing.slice(0, 50).join(',') },
          { signal: ctx.signal },
        );
        for (const id of missing) fileNames.set(id, null);
        for (const file of found) fileNames.set(file.id, file.name);
      } catch {
        for (const id of missing) fileNames.set(id, null);
      } finally {
        lookingUp = false;
      }
      renderHead();
    })();
  }

  /** Shows the conversation's scope in the files panel: its collection and its files ticked. */
  function applyPendingScope(): void {
    const wanted = pendingScope;
    if (!wanted || !collections.collections) return;
    if (wanted.collection !== undefined) {
      if (!collections.byId(wanted.collection)) {
        pendingScope = undefined; // no longer readable: the workspace stays as it is
        return;
      }
      if (collections.current?.id !== wanted.collection) {
        collections.choose(wanted.collection);
        return; // the files come with the switch
      }
    }
    if (!store.files || (wanted.collection && store.collection?.id !== wanted.collection)) return;
    pendingScope = undefined;
    store.clearSelection();
    for (const id of wanted.files) if (store.fileById(id)) store.setSelected(id, true);
  }
  collections.subscribe(applyPendingScope);
  store.subscribe(() => {
    applyPendingScope();
    if (current?.file_id?.length) renderHead();
  });

  // ---- opening, starting, renaming and deleting conversations -----------------------------
  function remember(id: string | undefined): void {
    if (id) sessionStorage.setItem(openKey, id);
    else sessionStorage.removeItem(openKey);
  }

  function showing(open: Conversation | undefined): void {
    current = open;
    remember(open?.id);
    list.setCurrent(open?.id);
    renderHead();
  }

  /** Leaves what is shown: a streaming answer stops, an opening conversation is not waited for. */
  function leave(): void {
    shown += 1;
    streaming?.controller.abort();
    opening?.abort();
    opening = undefined;
  }

  function newConversation(): void {
    leave();
    showing(undefined);
    replace(conversation, intro);
    announce(t((m) => m.conversations.started));
    if (matchMedia(NARROW).matches) setListOpen(false);
    textarea.focus();
  }

  async function openConversation(id: string): Promise<void> {
    leave();
    const generation = shown;
    const controller = new AbortController();
    opening = controller;
    replace(
      conversation,
      h(
        'p',
        { class: 'loading' },
        t((m) => m.conversations.opening),
      ),
    );
    try {
      const found = await ctx.api.chat.GetConversation(
        { id },
        { signal: AbortSignal.any([ctx.signal, controller.signal]) },
      );
      if (generation !== shown) return;
      const { messages, ...open } = found;
      showing(open);
      replace(conversation);
      for (const message of messages) {
        const turn = createTurn(ctx, message.question, [], conversation, announce);
        turn.restore(message);
        conversation.append(turn.element);
      }
      if (messages.length === 0) conversation.append(intro);
      conversation.scrollTop = conversation.scrollHeight;
      announce(t((m) => m.conversations.opened(open.title)));
      pendingScope = {
        collection: open.collection_id?.length === 1 ? open.collection_id[0] : undefined,
        files: open.file_id ?? [],
      };
      applyPendingScope();
    } catch (err) {
      if (isAbort(err) || generation !== shown) return;
      const failure = ctx.fail(err);
      if (failure.status === 401) return;
      if (failure.status === 404) {
        // Deleted meanwhile (another tab): a new conversation instead.
        list.remove(id);
        showing(undefined);
        replace(conversation, intro);
        return;
      }
      replace(
        conversation,
        h(
          'p',
          { class: 'notice error', role: 'alert' },
          t((m) => m.conversations.openFailed(failureText(failure, m))),
        ),
      );
    } finally {
      if (opening === controller) opening = undefined;
    }
  }

  async function rename(): Promise<void> {
    const open = current;
    if (!open) return;
    const renamed = await renameDialog(ctx, open);
    if (!renamed) return;
    list.update(renamed);
    if (current?.id === renamed.id) showing({ ...current, title: renamed.title });
    announce(t((m) => m.conversations.renamed(renamed.title)));
  }

  async function remove(): Promise<void> {
    const open = current;
    if (!open) return;
    const sure = await confirmDialog((m) => ({
      title: m.conversations.deleteTitle(open.title),
      message: m.conversations.deleteMessage,
      confirm: m.conversations.deleteConfirm,
      danger: true,
    }));
    if (!sure) return;
    try {
      await ctx.api.chat.DeleteConversation({ id: open.id }, { signal: ctx.signal });
    } catch (err) {
      const failure = ctx.fail(err);
      if (failure.status === 401) return;
      if (failure.status !== 404) {
        announce(t((m) => m.conversations.notDeleted(failureText(failure, m))));
        return;
      }
    }
    list.remove(open.id);
    if (current?.id === open.id) newConversation();
    announce(t((m) => m.conversations.deleted(open.title)));
  }

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
    // A conversation still opening: the question waits for it no more, and starts afresh.
    if (opening) newConversation();
    const files = store.selectedFiles();
    const collection = store.collection;
    const continued = current;
    const generation = shown;
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
            conversation_id: continued?.id,
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
        if (item.event === 'conversation') {
          // Which conversation this turn is in (a new one, or the one continued), and the id
          // feedback names it by.
          turn.identify(item.data.message_id);
          const at = new Date().toISOString();
          const started: Conversation = {
            id: item.data.conversation_id,
            title: continued?.id === item.data.conversation_id ? continued.title : item.data.title,
            file_id: files.length > 0 ? files.map((file) => file.id) : null,
            collection_id: collection ? [collection.id] : null,
            created_at: continued?.created_at ?? at,
            updated_at: at,
          };
          list.touch(started);
          if (generation === shown) showing(started);
        } else if (item.event === 'message') turn.message(item.data);
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
        } else {
          turn.failed(failureMessage(failure));
          // The conversation was deleted meanwhile (another tab): the next question starts one.
          if (failure.status === 404 && continued && generation === shown) {
            list.remove(continued.id);
            showing(undefined);
          }
        }
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

  const panel = h(
    'section',
    { class: 'panel chat-panel', 'aria-labelledby': titleId },
    h(
      'h2',
      { id: titleId, class: 'visually-hidden', tabindex: -1 },
      t((m) => m.chat.conversation),
    ),
    head,
    h(
      'div',
      { class: 'chat-body' },
      list.element,
      h('div', { class: 'chat-main' }, conversation, form),
    ),
  );
  setListOpen(matchMedia(WIDE).matches);
  renderHead();
  void list.refresh();
  const reopen = sessionStorage.getItem(openKey);
  if (reopen) void openConversation(reopen);
  return panel;
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
  /** The stored turn this answer is (the stream's `conversation` event): feedback names it. */
  identify(messageId: string): void;
  /** Shows a stored turn of a conversation opened again, as it ended. */
  restore(message: ConversationMessage): void;
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
  let messageId: string | undefined;
  let feedback: Feedback | null = null;

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
  onLocaleChange(() => view.relabel(), ctx.signal);
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
    if (messageId) answerBox.append(createFeedback(ctx, messageId, feedback, announce));
  }

  function showMode(how: ChatDone['mode'] | null): void {
    // A chat about chosen files reads them whole when they fit, else their best pages.
    if (!how || how === 'retrieval') return;
    mode.hidden = false;
    replace(
      mode,
      t((m) => (how === 'full_text' ? m.chat.modeFullText : m.chat.modeFileRetrieval)),
    );
  }

  function showNotice(
    kind: 'refusal' | 'error' | 'stopped' | 'incomplete',
    text: Localized | string,
  ): void {
    notice.hidden = false;
    notice.className = `answer-notice ${kind === 'incomplete' ? 'stopped' : kind}`;
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
                : kind === 'incomplete'
                  ? m.conversations.cutOffLabel
                  : m.chat.failed,
          ),
        ),
        text,
      ),
    );
  }

  function showSources(list: ChatSource[]): void {
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
      showSources(list);
    },
    done(done) {
      showMode(done.mode);
    },
    identify(id) {
      messageId = id;
    },
    restore(message) {
      messageId = message.id;
      feedback = message.feedback;
      first = false;
      if (message.status === 'refused' || message.status === 'failed') {
        setState(message.status);
        showNotice(
          message.status === 'refused' ? 'refusal' : 'error',
          codedText(message.code ?? undefined, message.answer),
        );
      } else {
        answer = asStreamed(message.answer);
        showSources(message.sources);
        showMode(message.mode);
        if (message.status === 'incomplete') {
          setState('incomplete');
          showNotice(
            'incomplete',
            t((m) => m.conversations.cutOff),
          );
        } else setState('done');
      }
      end();
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
