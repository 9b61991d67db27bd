import { createApi, failureOf, type Failure, type User } from './api/services';
import { t, type Localized } from './i18n/bind';
import { failureMessage } from './i18n/failure';
import { createLoginView } from './login-view';
import { createMainView, type MainView } from './main-view';
import { session } from './session';

const SESSION_LOST = t((m) => m.app.sessionLost);
const SESSION_EXPIRED = t((m) => m.app.sessionExpired);

/** The whole app: the login page, or the logged-in screens of one user. */
export function startApp(root: HTMLElement): void {
  const api = createApi(location.origin, () => session.token());
  const login = createLoginView(api, loggedIn);
  let main: MainView | undefined;
  let expiryTimer: ReturnType<typeof setTimeout> | undefined;
  root.replaceChildren(login.element);

  /** Words for a failed call; a refused token also ends the session, keeping the screens. */
  function fail(err: unknown): Failure {
    const failure = failureOf(err) ?? {
      status: 0,
      code: 'network',
      detail: 'The service could not be reached.',
      fields: [],
    };
    if (failure.status === 401 && main && !main.element.hidden) sessionLost(SESSION_LOST);
    return failure;
  }

  function sessionLost(message: Localized): void {
    session.end();
    clearTimeout(expiryTimer);
    main?.hide();
    login.show(message, 'warning');
  }

  function loggedIn(me: User): void {
    // The same user again finds everything as it was; another user starts afresh.
    if (main && main.me.id !== me.id) {
      main.destroy();
      main = undefined;
    }
    if (!main) {
      main = createMainView(api, me, { fail, logout });
      root.append(main.element);
    }
    login.hide();
    main.show();
    scheduleExpiry();
  }

  function logout(): void {
    session.end();
    clearTimeout(expiryTimer);
    if (main) sessionStorage.removeItem(`kbchat.draft.${main.me.id}`);
    main?.destroy();
    main = undefined;
    history.replaceState(null, '', location.pathname);
    login.show(
      t((m) => m.app.loggedOut),
      'info',
    );
  }

  function scheduleExpiry(): void {
    clearTimeout(expiryTimer);
    const at = session.expiresAt();
    if (at === undefined) return;
    // setTimeout holds at most ~24.8 days; tokens live hours.
    const delay = Math.min(Math.max(0, at - Date.now()), 2 ** 31 - 1);
    expiryTimer = setTimeout(() => sessionLost(SESSION_EXPIRED), delay);
  }

  void (async () => {
    if (!session.token()) return login.show();
    try {
      loggedIn(await api.auth.GetMe());
    } catch (err) {
      const failure = failureOf(err);
      if (failure?.status === 401) {
        session.end();
        login.show(SESSION_LOST, 'warning');
      } else {
        login.show(failure ? failureMessage(failure) : t((m) => m.app.unreachableReload));
      }
    }
  })();
}
