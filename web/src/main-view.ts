import type { Api, Failure, User } from './api/services';
import { createChatPanel } from './chat-panel';
import { createElement } from 'preact';
import { CollectionPage } from './collection/collection-page';
import { createCollectionStore } from './collection-store';
import type { AppContext } from './context';
import { h, replace } from './dom';
import { createFilesPanel } from './files-panel';
import { localizeTitle, t } from './i18n/bind';
import { formatInteger } from './i18n/format';
import { createKnowledgeStore } from './knowledge-store';
import { createLanguageSwitch } from './language-switch';
import { UnhelpfulPage } from './review/unhelpful-page';
import { mountPage, unmountPage } from './page-bridge';
import { UsersPage } from './users/users-page';

export interface MainView {
  show(): void;
  hide(): void;
  destroy(): void;
}

type Route =
  { page: 'chat' } | { page: 'users' } | { page: 'unhelpful' } | { page: 'collection'; id: string };

function routeOf(hash: string): Route {
  if (hash === '#/users') return { page: 'users' };
  if (hash === '#/unhelpful') return { page: 'unhelpful' };
  const collection = /^#\/collection\/([0-9a-f-]{36})$/i.exec(hash);
  if (collection) return { page: 'collection', id: collection[1]! };
  return { page: 'chat' };
}

const sameRoute = (a: Route | undefined, b: Route) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The logged-in app: header, the chat workspace, the users page and a collection's members
 * page, by URL hash.
 */
export function createMainView(
  element: HTMLElement,
  api: Api,
  me: User,
  hooks: { fail(err: unknown): Failure; logout(): void },
): MainView {
  const teardown = new AbortController();
  const ctx: AppContext = { api, me, signal: teardown.signal, fail: hooks.fail };
  const admin = me.role === 'SUPER_ADMIN';

  const chatLink = h(
    'a',
    { href: '#/' },
    t((m) => m.app.chat),
  );
  const usersLink =
    admin &&
    h(
      'a',
      { href: '#/users' },
      t((m) => m.app.users),
    );
  const unhelpfulLink =
    admin &&
    h(
      'a',
      { href: '#/unhelpful' },
      t((m) => m.app.unhelpfulAnswers),
    );
  const header = h(
    'header',
    { class: 'topbar' },
    h(
      'a',
      { class: 'brand', href: '#/' },
      h('span', { class: 'brand-mark', 'aria-hidden': 'true' }, 'KB'),
      h(
        'span',
        { class: 'brand-text' },
        t((m) => m.app.brand),
      ),
    ),
    h(
      'nav',
      { class: 'nav', 'aria-label': t((m) => m.app.mainNavigation) },
      chatLink,
      usersLink,
      unhelpfulLink,
    ),
    h(
      'div',
      { class: 'who' },
      createLanguageSwitch(teardown.signal),
      h(
        'span',
        { class: 'who-name', title: t((m) => m.app.loggedInAsTitle(me.username)) },
        h(
          'span',
          { class: 'visually-hidden' },
          t((m) => m.app.loggedInAs),
        ),
        me.username,
      ),
      h(
        'span',
        { class: admin ? 'badge admin' : 'badge' },
        t((m) => (admin ? m.app.superAdmin : m.app.user)),
      ),
      h(
        'button',
        { type: 'button', class: 'button small', on: { click: () => hooks.logout() } },
        t((m) => m.app.logOut),
      ),
    ),
  );

  // The workspace lives as long as the session, so the conversation survives page switches.
  const collections = createCollectionStore(ctx);
  const store = createKnowledgeStore(ctx, collections);
  const filesPanel = createFilesPanel(ctx, store, collections);
  const chatPanel = createChatPanel(ctx, store, collections);
  // On a narrow screen one pane shows at a time: a pair of toggle buttons switches them.
  const chatTab = h(
    'button',
    { type: 'button' },
    t((m) => m.app.chat),
  );
  const filesTabLabel = h(
    'span',
    null,
    t((m) => m.app.files),
  );
  const filesTab = h('button', { type: 'button' }, filesTabLabel);
  const tabs = h(
    'div',
    { class: 'pane-tabs', role: 'group', 'aria-label': t((m) => m.app.panes) },
    chatTab,
    filesTab,
  );
  const workspace = h(
    'div',
    { class: 'workspace', 'data-pane': 'chat' },
    tabs,
    filesPanel,
    chatPanel,
  );
  const showPane = (pane: 'chat' | 'files') => {
    workspace.dataset.pane = pane;
    chatTab.setAttribute('aria-pressed', String(pane === 'chat'));
    filesTab.setAttribute('aria-pressed', String(pane === 'files'));
  };
  chatTab.addEventListener('click', () => showPane('chat'));
  filesTab.addEventListener('click', () => showPane('files'));
  showPane('chat');
  store.subscribe(() => {
    const count = store.files?.length;
    replace(
      filesTabLabel,
      t((m) => (count === undefined ? m.app.files : m.app.filesCount(formatInteger(count)))),
    );
  });

  const outlet = h('main', { class: 'outlet', id: 'main' });
  element.append(
    h(
      'a',
      { class: 'skip-link', href: '#main', on: { click: skipToMain } },
      t((m) => m.app.skipToContent),
    ),
    header,
    outlet,
  );
  let route: Route | undefined;

  function skipToMain(event: MouseEvent): void {
    event.preventDefault();
    outlet.querySelector<HTMLElement>('h1, h2, textarea')?.focus();
  }

  function navigate(): void {
    if (element.hidden) return;
    const next = routeOf(location.hash);
    const from = route;
    const changed = !sameRoute(from, next);
    route = next;
    chatLink.toggleAttribute('aria-current', next.page === 'chat');
    if (chatLink.hasAttribute('aria-current')) chatLink.setAttribute('aria-current', 'page');
    if (usersLink) {
      usersLink.toggleAttribute('aria-current', next.page === 'users');
      if (next.page === 'users') usersLink.setAttribute('aria-current', 'page');
    }
    if (unhelpfulLink) {
      unhelpfulLink.toggleAttribute('aria-current', next.page === 'unhelpful');
      if (next.page === 'unhelpful') unhelpfulLink.setAttribute('aria-current', 'page');
    }
    // A page component leaves the outlet before anything else is shown there.
    unmountPage(outlet);
    if (next.page === 'unhelpful') {
      replace(outlet);
      mountPage(outlet, ctx, createElement(UnhelpfulPage, null));
      localizeTitle(t((m) => m.app.title(m.conversations.reviewTitle)));
      outlet.querySelector<HTMLElement>('h1')?.focus();
    } else if (next.page === 'users') {
      replace(outlet);
      mountPage(outlet, ctx, createElement(UsersPage, null));
      localizeTitle(t((m) => m.app.title(m.users.title)));
      outlet.querySelector<HTMLElement>('h1')?.focus();
    } else if (next.page === 'collection') {
      replace(outlet);
      mountPage(outlet, ctx, createElement(CollectionPage, { id: next.id, collections }));
      localizeTitle(t((m) => m.app.title(m.collections.title)));
      outlet.querySelector<HTMLElement>('h1')?.focus();
    } else {
      // Back from a members page: names, roles and memberships may have changed there.
      if (changed && from) void collections.refresh();
      if (workspace.parentElement !== outlet) replace(outlet, workspace);
      localizeTitle(t((m) => m.app.title(m.app.chat)));
      // Straight into the question box, except on touch screens (it would open the keyboard).
      if (changed && matchMedia('(pointer: fine)').matches) {
        workspace.querySelector<HTMLElement>('textarea')?.focus();
      }
    }
  }
  window.addEventListener('hashchange', navigate, { signal: teardown.signal });

  return {
    show() {
      element.hidden = false;
      route = undefined;
      navigate();
      // The files come once the collections are known (the chosen one's).
      void collections.refresh();
      void store.refresh();
    },
    hide() {
      element.hidden = true;
    },
    destroy() {
      teardown.abort();
      unmountPage(outlet);
    },
  };
}
