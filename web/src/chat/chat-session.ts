import { batch, signal } from '@preact/signals';
import type { Conversation } from '../api/services';
import type { CollectionStore } from '../collection-store';
import { isAbort, type AppContext } from '../context';
import { t, type Localized } from '../i18n/bind';
import { failureMessage, failureText } from '../i18n/failure';
import type { KnowledgeStore } from '../knowledge-store';
import { createConversationScope } from './conversation-scope';
import { createConversations } from './conversations';
import { createDraft } from './draft';
import { createTurn, type Turn } from './turn-model';
import { activeFilters, type Filters } from './filter-bar';

/** What the conversation area shows besides its turns. */
export type Shown =
  { kind: 'turns' } | { kind: 'opening' } | { kind: 'openFailed'; message: Localized };

/** What the chat's view does for the session: where the question is typed, and scrolling. */
export interface ChatView {
  focusPrompt(): void;
  atEnd(): boolean;
  toEnd(): void;
  /** A new turn is on the page: brought into view. */
  showTurn(turn: Turn): void;
}

const NO_VIEW: ChatView = {
  focusPrompt: () => {},
  atEnd: () => false,
  toEnd: () => {},
  showTurn: () => {},
};

/**
 * Asking questions, as a session with the service: the open conversation and its turns, each
 * answer's stream, and opening, starting and deleting conversations. Questions search the
 * collection the files panel shows (or the files ticked in it). The view reads its signals.
 */
export function createChatSession(
  ctx: AppContext,
  store: KnowledgeStore,
  collections: CollectionStore,
) {
  /** The chat panel on the page, while it is (the session outlives it: see attach). */
  let view: ChatView = NO_VIEW;
  const openKey = `kbchat.conversation.${ctx.me.id}`;
  const conversations = createConversations(ctx);
  const scope = createConversationScope(ctx, store, collections);
  const draft = createDraft(`kbchat.draft.${ctx.me.id}`);
  /** The open conversation; undefined for a new one that no question has started yet. */
  const current = signal<Conversation | undefined>(undefined);
  const turns = signal<readonly Turn[]>([]);
  const shown = signal<Shown>({ kind: 'turns' });
  const streaming = signal<AbortController | undefined>(undefined);
  /** The filter bar's values, sent with each question (filter-bar.tsx). */
  const filters = signal<Filters>({});
  // Told to screen readers once per step; the answer itself streams into a region that is
  // busy until it ends, so it is not read out token by token.
  const announcement = signal<Localized | undefined>(undefined);
  const announce = (text: Localized) => void (announcement.value = text);
  /** Bumped whenever another conversation is shown: a late answer then leaves it alone. */
  let generation = 0;
  let opening: AbortController | undefined;

  const turnHooks = { announce, atEnd: () => view.atEnd(), toEnd: () => view.toEnd() };

  function showing(open: Conversation | undefined): void {
    current.value = open;
    conversations.current.value = open?.id;
    if (open) sessionStorage.setItem(openKey, open.id);
    else sessionStorage.removeItem(openKey);
  }

  /** Leaves what is shown: a streaming answer stops, an opening conversation is not waited for. */
  function leave(): void {
    generation += 1;
    streaming.value?.abort();
    opening?.abort();
    opening = undefined;
  }

  function newConversation(): void {
    leave();
    batch(() => {
      showing(undefined);
      turns.value = [];
      shown.value = { kind: 'turns' };
    });
    announce(t((m) => m.conversations.started));
    view.focusPrompt();
  }

  async function open(id: string): Promise<void> {
    leave();
    const mine = generation;
    const controller = new AbortController();
    opening = controller;
    batch(() => {
      turns.value = [];
      shown.value = { kind: 'opening' };
    });
    try {
      const found = await ctx.api.chat.GetConversation(
        { id },
        { signal: AbortSignal.any([ctx.signal, controller.signal]) },
      );
      if (mine !== generation) return;
      const { messages, ...conversation } = found;
      batch(() => {
        showing(conversation);
        turns.value = messages.map((message) => {
          const turn = createTurn(message.question, [], turnHooks);
          turn.restore(message);
          return turn;
        });
        shown.value = { kind: 'turns' };
      });
      view.toEnd();
      announce(t((m) => m.conversations.opened(conversation.title)));
      scope.restore(conversation);
    } catch (err) {
      if (isAbort(err) || mine !== generation) return;
      const failure = ctx.fail(err);
      if (failure.status === 401) return;
      if (failure.status === 404) {
        // Deleted meanwhile (another tab): a new conversation instead.
        conversations.remove(id);
        showing(undefined);
        turns.value = [];
        shown.value = { kind: 'turns' };
        return;
      }
      shown.value = {
        kind: 'openFailed',
        message: t((m) => m.conversations.openFailed(failureText(failure, m))),
      };
    } finally {
      if (opening === controller) opening = undefined;
    }
  }

  /** A conversation renamed in its dialog. */
  function renamed(conversation: Conversation): void {
    conversations.update(conversation);
    if (current.value?.id === conversation.id) {
      showing({ ...current.value, title: conversation.title });
    }
    announce(t((m) => m.conversations.renamed(conversation.title)));
  }

  async function remove(conversation: Conversation): Promise<void> {
    try {
      await ctx.api.chat.DeleteConversation({ id: conversation.id }, { signal: ctx.signal });
    } catch (err) {
      const failure = ctx.fail(err);
      if (failure.status === 401) return;
      if (failure.status !== 404) {
        announce(t((m) => m.conversations.notDeleted(failureText(failure, m))));
        return;
      }
    }
    conversations.remove(conversation.id);
    if (current.value?.id === conversation.id) newConversation();
    announce(t((m) => m.conversations.deleted(conversation.title)));
  }

  /**
   * Asks the question in the box, with the filter bar's filters (none set: the service may
   * read some from the question, and says so). `again`: a question asked anew with these
   * filters, explicit even when empty (a proposed filter removed), leaving the box alone; with
   * `files`, within those files whatever the files panel has ticked.
   */
  async function ask(again?: {
    prompt: string;
    filters: Filters;
    files?: { id: string; name: string }[];
  }): Promise<void> {
    const prompt = again?.prompt ?? draft.text.value;
    const explicit = again ? again.filters : activeFilters(filters.value);
    if (streaming.value || !prompt.trim()) return;
    // A conversation still opening: the question waits for it no more, and starts afresh.
    if (opening) newConversation();
    const files = again?.files ?? store.selectedFiles();
    const continued = current.value;
    const mine = generation;
    const turn = createTurn(
      prompt,
      files.map((file) => file.name),
      turnHooks,
    );
    turns.value = [...turns.value, turn];
    view.showTurn(turn);
    if (!again) draft.set('');
    const controller = new AbortController();
    const abortOnTeardown = () => controller.abort();
    ctx.signal.addEventListener('abort', abortOnTeardown);
    streaming.value = controller;
    try {
      // Asked before the collections arrived (at once after logging in): the question searches
      // the collection the files panel is about to show, not every collection.
      if (!collections.collections) await collections.refresh();
      const collection = store.collection;
      const stream = await ctx.api.chat.Chat(
        {
          body: {
            prompt,
            file_id: files.length > 0 ? files.map((file) => file.id).join(',') : undefined,
            collection_id: collection?.id,
            conversation_id: continued?.id,
            ...(explicit ? { filters: explicit } : {}),
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
          conversations.touch(started);
          if (mine === generation) showing(started);
        } else if (item.event === 'message') turn.message(item.data);
        else if (item.event === 'sources') turn.setSources(item.data);
        else if (item.event === 'refusal') turn.explain(item.data);
        else if (item.event === 'filters') turn.proposeFilters(item.data.filters);
        else if (item.event === 'done') turn.done(item.data);
      }
      turn.finish();
    } catch (err) {
      if (isAbort(err)) turn.stopped();
      else {
        const failure = ctx.fail(err);
        if (failure.status === 401) {
          // Back to the login page; the question comes back to the box, to send again.
          turns.value = turns.value.filter((shownTurn) => shownTurn !== turn);
          if (!draft.text.value) draft.set(prompt);
        } else {
          turn.failed(failureMessage(failure));
          // The conversation was deleted meanwhile (another tab): the next question starts one.
          if (failure.status === 404 && continued && mine === generation) {
            conversations.remove(continued.id);
            showing(undefined);
          }
        }
      }
    } finally {
      ctx.signal.removeEventListener('abort', abortOnTeardown);
      streaming.value = undefined;
    }
  }

  /** Stops the answer streaming, if one is, and waits until it has. */
  async function stopped(): Promise<void> {
    const running = streaming.value;
    if (!running) return;
    running.abort();
    await new Promise<void>((settled) => {
      const stop = streaming.subscribe((now) => {
        if (now === running) return;
        queueMicrotask(() => stop());
        settled();
      });
    });
  }

  void conversations.refresh();
  const reopen = sessionStorage.getItem(openKey);
  if (reopen) void open(reopen);

  return {
    /** The chat panel shows this session; the function it answers takes it off again. */
    attach(shownIn: ChatView): () => void {
      view = shownIn;
      return () => void (view = NO_VIEW);
    },
    conversations,
    scope,
    draft,
    current,
    turns,
    shown,
    streaming,
    filters,
    announcement,
    announce,
    ask: () => ask(),
    /**
     * The question asked again with these filters (a proposed one removed); an answer still
     * streaming is stopped first, since it searched with the filter the user just removed.
     */
    reask: async (prompt: string, chosen: Filters) => {
      await stopped();
      await ask({ prompt, filters: chosen });
    },
    /**
     * The question asked again within one file (a refusal's closest passage's): the file is
     * ticked in the files panel, so that follow-ups stay within it until the user unticks it.
     */
    askInFile: async (prompt: string, file: { id: string; name: string }) => {
      // Another answer streaming (or this one asked already): it is not cut off for this.
      if (streaming.value) return;
      store.clearSelection();
      store.setSelected(file.id, true);
      announce(t((m) => m.chat.askingInFile(file.name)));
      await ask({ prompt, filters: {}, files: [file] });
    },
    stop: () => streaming.value?.abort(),
    open,
    newConversation,
    renamed,
    remove,
  };
}

export type ChatSession = ReturnType<typeof createChatSession>;
