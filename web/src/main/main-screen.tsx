import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { AccountPage } from '../account/account-page';
import { ApiKeysPage } from '../account/api-keys-page';
import type { Api, Failure, Login, User } from '../api/services';
import { AuditPage } from '../audit/audit-page';
import { createChatSession } from '../chat/chat-session';
import { ChunksPage } from '../chunks/chunks-page';
import { CollectionPage } from '../collection/collection-page';
import { createCollectionStore } from '../collection-store';
import { Session, type AppContext } from '../context';
import { localizeTitle, t } from '../i18n/bind';
import { messages } from '../i18n/messages';
import { createUploadQueue } from '../files/upload-queue';
import { createKnowledgeStore } from '../knowledge-store';
import { UnhelpfulPage } from '../review/unhelpful-page';
import { LimitsPage } from '../usage/limits-page';
import { UsageAdminPage } from '../usage/usage-admin-page';
import { UsagePage } from '../usage/usage-page';
import { UsersPage } from '../users/users-page';
import { DocumentViewer } from '../viewer/document-viewer';
import { takeOpener, trackOpeners } from '../viewer/opener';
import { loadModelStatus } from './model-status';
import { routeKey, routeOf, type Route } from './route';
import { Topbar } from './topbar';
import { Workspace, type Pane } from './workspace';

export interface MainScreenProps {
  api: Api;
  me: User;
  /** False while the login page asks again: the screens are kept, hidden, for the same user. */
  shown: boolean;
  fail(err: unknown): Failure;
  logout(): void;
  /** This session's token was replaced (a password change, the other sessions signed out). */
  renewed(login: Login): void;
}

/** The logged-in app: header, the chat workspace and the other pages, by URL hash. */
export function MainScreen({ api, me, shown, fail, logout, renewed }: MainScreenProps) {
  const hooks = useRef({ fail });
  hooks.current = { fail };
  // The session's screens and their stores live as long as this component.
  const [session] = useState(() => {
    const teardown = new AbortController();
    const ctx: AppContext = {
      api,
      me,
      signal: teardown.signal,
      fail: (err) => hooks.current.fail(err),
    };
    const collections = createCollectionStore(ctx);
    const store = createKnowledgeStore(ctx, collections);
    const chat = createChatSession(ctx, store, collections);
    const uploads = createUploadQueue(ctx, store);
    loadModelStatus(api, teardown.signal);
    return { teardown, ctx, collections, store, chat, uploads };
  });
  const { ctx, collections, store, chat, uploads } = session;
  const [route, setRoute] = useState<Route>(() => routeOf(location.hash));
  const [pane, showPane] = useState<Pane>('chat');
  const outlet = useRef<HTMLElement>(null);
  const shownRoute = useRef<Route | undefined>(undefined);

  useEffect(() => () => session.teardown.abort(), []);
  useEffect(trackOpeners, []);
  useEffect(() => {
    const navigate = () => setRoute(routeOf(location.hash));
    window.addEventListener('hashchange', navigate);
    return () => window.removeEventListener('hashchange', navigate);
  }, []);
  // Before the first paint, as the collections decide which files (and scope) a question has.
  useLayoutEffect(() => {
    if (!shown) return;
    // Shown again (logged in once more): the route is taken afresh, as on a first visit.
    shownRoute.current = undefined;
    setRoute(routeOf(location.hash));
    // The files come once the collections are known (the chosen one's).
    void collections.refresh();
    void store.refresh();
  }, [shown]);

  // A page just opened: its title, and the focus on its heading (on the chat, the question box).
  useLayoutEffect(() => {
    if (!shown) return;
    const from = shownRoute.current;
    const changed = !from || routeKey(from) !== routeKey(route);
    shownRoute.current = route;
    localizeTitle(t((m) => m.app.title(pageTitle(route, m))));
    // The document viewer is a dialog over the chat: it takes the focus, and gives it back to
    // the citation it was opened from (closeViewer).
    if (route.page === 'doc' || (from?.page === 'doc' && route.page === 'chat')) return;
    if (route.page !== 'chat') {
      if (changed) outlet.current?.querySelector<HTMLElement>('h1')?.focus();
      return;
    }
    // Back from a members page: names, roles and memberships may have changed there.
    if (changed && from) void collections.refresh();
    // Straight into the question box, except on touch screens (it would open the keyboard).
    if (changed && matchMedia('(pointer: fine)').matches) {
      outlet.current?.querySelector<HTMLElement>('textarea')?.focus();
    }
  }, [route, shown]);

  /** Back to where the viewer was opened from: the citation, or the chat for a shared link. */
  function closeViewer(): void {
    const opener = takeOpener();
    if (opener && history.length > 1) history.back();
    else location.replace('#/');
    opener?.focus();
  }

  function skipToMain(event: MouseEvent): void {
    event.preventDefault();
    outlet.current?.querySelector<HTMLElement>('h1, h2, textarea')?.focus();
  }

  return (
    <div class="app" hidden={!shown}>
      <a class="skip-link" href="#main" onClick={skipToMain}>
        {messages().app.skipToContent}
      </a>
      <Topbar me={me} route={route} logout={logout} />
      <main class="outlet" id="main" ref={outlet}>
        <Session.Provider value={ctx}>
          {route.page === 'users' ? (
            <UsersPage />
          ) : route.page === 'account' ? (
            <AccountPage renewed={renewed} />
          ) : route.page === 'keys' ? (
            <ApiKeysPage />
          ) : route.page === 'usage' ? (
            <UsagePage />
          ) : route.page === 'admin-usage' ? (
            <UsageAdminPage />
          ) : route.page === 'audit' ? (
            <AuditPage />
          ) : route.page === 'limits' ? (
            <LimitsPage />
          ) : route.page === 'unhelpful' ? (
            <UnhelpfulPage />
          ) : route.page === 'chunks' ? (
            <ChunksPage key={route.id} id={route.id} at={route.at} />
          ) : route.page === 'collection' ? (
            <CollectionPage
              key={route.id}
              id={route.id}
              section={route.section}
              collections={collections}
            />
          ) : (
            <Workspace
              store={store}
              collections={collections}
              chat={chat}
              uploads={uploads}
              pane={pane}
              showPane={showPane}
            />
          )}
          {route.page === 'doc' && (
            <DocumentViewer key={route.id} route={route} onClose={closeViewer} />
          )}
        </Session.Provider>
      </main>
    </div>
  );
}

function pageTitle(route: Route, m: ReturnType<typeof messages>): string {
  if (route.page === 'users') return m.users.title;
  if (route.page === 'unhelpful') return m.conversations.reviewTitle;
  if (route.page === 'collection') return m.collections.title;
  if (route.page === 'doc') return m.viewer.title;
  if (route.page === 'chunks') return m.chunks.title;
  if (route.page === 'account') return m.account.myAccount;
  if (route.page === 'keys') return m.account.myKeys;
  if (route.page === 'usage') return m.account.myUsage;
  if (route.page === 'admin-usage') return m.account.usageOverview;
  if (route.page === 'audit') return m.account.auditTrail;
  if (route.page === 'limits') return m.account.limits;
  return m.app.chat;
}
