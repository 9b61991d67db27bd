import { useEffect, useRef, useState } from 'preact/hooks';
import { createApi, failureOf, type Failure, type Login, type User } from './api/services';
import { t, type Localized } from './i18n/bind';
import { failureMessage } from './i18n/failure';
import { LoginPage, type LoginReason } from './login/login-page';
import { MainScreen } from './main/main-screen';
import { session } from './session';

const SESSION_LOST = t((m) => m.app.sessionLost);
const SESSION_EXPIRED = t((m) => m.app.sessionExpired);

/**
 * The whole app: the login page, or the logged-in screens of one user. A session that ends
 * (refused, expired) brings the login page back over the screens, which are kept for when the
 * same user is back; another user starts afresh.
 */
export function App() {
  const [api] = useState(() => createApi(location.origin, () => session.token()));
  /** The logged-in user's screens; kept, hidden, while the login page asks again. */
  const [me, setMe] = useState<User | undefined>();
  const [login, setLogin] = useState<LoginReason | undefined>();
  const expiry = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const loggedIn = me !== undefined && login === undefined;

  const showLogin = (message?: Localized, tone?: LoginReason['tone']) =>
    setLogin({ message, tone });

  function sessionLost(message: Localized): void {
    session.end();
    clearTimeout(expiry.current);
    showLogin(message, 'warning');
  }

  /** Words for a failed call; a refused token also ends the session, keeping the screens. */
  function fail(err: unknown): Failure {
    const failure = failureOf(err) ?? {
      status: 0,
      code: 'network',
      detail: 'The service could not be reached.',
      fields: [],
    };
    if (failure.status === 401 && loggedInNow.current) sessionLost(SESSION_LOST);
    return failure;
  }
  // Calls made by the screens answer later: they see whether the session is still shown now.
  const loggedInNow = useRef(false);
  loggedInNow.current = loggedIn;

  function onLoggedIn(user: User): void {
    setMe(user);
    setLogin(undefined);
    watchExpiry();
  }

  /** Sends the login page when the token expires (from the expiry the session holds). */
  function watchExpiry(): void {
    clearTimeout(expiry.current);
    const at = session.expiresAt();
    if (at === undefined) return;
    // setTimeout holds at most ~24.8 days; tokens live hours.
    const delay = Math.min(Math.max(0, at - Date.now()), 2 ** 31 - 1);
    expiry.current = setTimeout(() => sessionLost(SESSION_EXPIRED), delay);
  }

  /** A new token for this session (the old one was ended by the change that answered it). */
  function renewed(next: Login): void {
    session.start(next.token, next.expire);
    watchExpiry();
  }

  function logout(): void {
    // The sign-out is recorded (the audit trail) with the token being forgotten; the page does
    // not wait for it, nor mind when it fails: the token is gone from this tab either way.
    const token = session.token();
    if (token) {
      api.auth
        .PostLogout(undefined, { headers: { Authorization: `Bearer ${token}` } })
        .catch(() => undefined);
    }
    session.end();
    clearTimeout(expiry.current);
    if (me) sessionStorage.removeItem(`kbchat.draft.${me.id}`);
    setMe(undefined);
    history.replaceState(null, '', location.pathname);
    showLogin(
      t((m) => m.app.loggedOut),
      'info',
    );
  }

  useEffect(() => {
    if (!session.token()) return showLogin();
    api.auth.GetMe().then(onLoggedIn, (err: unknown) => {
      const failure = failureOf(err);
      if (failure?.status === 401) {
        session.end();
        showLogin(SESSION_LOST, 'warning');
      } else showLogin(failure ? failureMessage(failure) : t((m) => m.app.unreachableReload));
    });
  }, []);

  return (
    <>
      <LoginPage api={api} hidden={!login} shown={login ?? {}} onLoggedIn={onLoggedIn} />
      {me && (
        <MainScreen
          key={me.id}
          api={api}
          me={me}
          shown={loggedIn}
          fail={fail}
          logout={logout}
          renewed={renewed}
        />
      )}
    </>
  );
}
