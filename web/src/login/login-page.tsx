import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { failureOf, type Api, type User } from '../api/services';
import { LanguageSwitch } from '../components/language-switch';
import { Field } from '../components/field';
import { Notice, type Tone } from '../components/notice';
import { useUniqueId } from '../components/unique-id';
import { localizeTitle, now, t, type Localized } from '../i18n/bind';
import { failureMessage } from '../i18n/failure';
import { messages } from '../i18n/messages';
import { session } from '../session';
import { backFromSso, collectSso, ssoStartHref } from './sso';

/** Why the login page is shown (the session ended, expired, was refused), and how loudly. */
export interface LoginReason {
  message?: Localized;
  tone?: Tone;
}

type SignInOptions = { password: boolean; sso: { label: string; start_url: string } | null };

export interface LoginPageProps {
  api: Api;
  /** Hidden while a user is logged in: the page stays, so what was typed stays too. */
  hidden: boolean;
  /** Each time the page is shown again, a new object: the page then says why and takes the focus. */
  shown: LoginReason;
  onLoggedIn(me: User): void;
}

/** The login page. Logging in stores the token and hands over the user it belongs to. */
export function LoginPage({ api, hidden, shown, onLoggedIn }: LoginPageProps) {
  const titleId = useUniqueId('login-title');
  const username = useRef<HTMLInputElement>(null);
  const password = useRef<HTMLInputElement>(null);
  const [notice, setNotice] = useState<LoginReason>(shown);
  const [busy, setBusy] = useState(false);
  /** How this service signs in (GetSignInOptions); the password form until it is known. */
  const [options, setOptions] = useState<SignInOptions>({ password: true, sso: null });
  const m = messages();

  useEffect(() => {
    api.auth.GetSignInOptions().then(setOptions, () => undefined);
    // Back from the identity provider: collect the outcome of the sign-in.
    if (backFromSso(location.hash)) void signInWithSso();
  }, []);

  async function signInWithSso(): Promise<void> {
    setBusy(true);
    setNotice({ message: t((m) => m.login.ssoSigningIn), tone: 'info' });
    try {
      const me = await collectSso(api);
      setNotice({});
      onLoggedIn(me);
    } catch (err) {
      const failure = failureOf(err);
      setNotice({
        message: failure ? failureMessage(failure) : t((m) => m.errors.network),
        tone: 'error',
      });
    } finally {
      setBusy(false);
    }
  }

  useLayoutEffect(() => {
    if (hidden) return;
    setNotice(shown);
    const name = username.current;
    localizeTitle(t((m) => m.app.title(m.login.pageTitle)));
    if (!name) return;
    if (!name.value) name.value = session.lastUsername();
    (name.value ? password.current! : name).focus();
  }, [hidden, shown]);

  async function logIn(): Promise<void> {
    const name = username.current!.value;
    setBusy(true);
    setNotice({});
    session.rememberUsername(name);
    try {
      const login = await api.auth.PostLogin({
        body: { username: name, password: password.current!.value },
      });
      session.start(login.token, login.expire);
      const me = await api.auth.GetMe();
      password.current!.value = '';
      onLoggedIn(me);
    } catch (err) {
      const failure = failureOf(err);
      if (!failure) setNotice({ message: t((m) => m.errors.network) });
      else if (failure.status === 401) setNotice({ message: t((m) => m.login.wrongCredentials) });
      else setNotice({ message: failureMessage(failure) });
      password.current!.select();
    } finally {
      setBusy(false);
    }
  }

  return (
    <main class="login" hidden={hidden}>
      <div class="login-tools">
        <LanguageSwitch />
      </div>
      <div class="login-card">
        <p class="brand-mark" aria-hidden="true">
          KB
        </p>
        <h1 id={titleId}>{m.login.title}</h1>
        <p class="lead">{options.password ? m.login.lead : m.login.ssoLead}</p>
        <Notice tone={notice.tone} text={notice.message && now(notice.message)} />
        {options.sso && (
          <>
            <a
              class={options.password ? 'button wide sso-button' : 'button primary wide sso-button'}
              href={ssoStartHref(options.sso.start_url, location.hash)}
              aria-disabled={busy ? 'true' : undefined}
            >
              {m.login.signInWith(options.sso.label)}
            </a>
            {options.password && (
              <p class="login-or" aria-hidden="true">
                {m.login.or}
              </p>
            )}
          </>
        )}
        {options.password && (
          <form
            class="login-form"
            aria-labelledby={titleId}
            onSubmit={(event) => {
              event.preventDefault();
              void logIn();
            }}
          >
            <Field label={m.login.username}>
              {({ id }) => (
                <input
                  id={id}
                  ref={username}
                  name="username"
                  autocomplete="username"
                  autocapitalize="none"
                  spellcheck={false}
                  required
                  maxLength={100}
                />
              )}
            </Field>
            <Field label={m.login.password}>
              {({ id }) => (
                <input
                  id={id}
                  ref={password}
                  name="password"
                  type="password"
                  autocomplete="current-password"
                  required
                  maxLength={128}
                />
              )}
            </Field>
            <button type="submit" class="button primary wide" disabled={busy}>
              {m.login.logIn}
            </button>
          </form>
        )}
      </div>
    </main>
  );
}
