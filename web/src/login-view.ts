import { failureOf, type Api, type User } from './api/services';
import { h, replace, uid } from './dom';
import { localizeTitle, t, type Localized } from './i18n/bind';
import { failureMessage } from './i18n/failure';
import { createLanguageSwitch } from './language-switch';
import { session } from './session';

export type Tone = 'info' | 'warning' | 'error';

export interface LoginView {
  element: HTMLElement;
  show(message?: Localized, tone?: Tone): void;
  hide(): void;
}

/** The login page. Logging in stores the token and hands over the user it belongs to. */
export function createLoginView(api: Api, onLoggedIn: (me: User) => void): LoginView {
  const titleId = uid('login-title');
  const userId = uid('username');
  const passId = uid('password');
  const notice = h('p', { class: 'notice', role: 'alert', hidden: true });
  const username = h('input', {
    id: userId,
    name: 'username',
    autocomplete: 'username',
    autocapitalize: 'none',
    spellcheck: 'false',
    required: true,
    maxlength: 100,
  });
  const password = h('input', {
    id: passId,
    name: 'password',
    type: 'password',
    autocomplete: 'current-password',
    required: true,
    maxlength: 128,
  });
  const submit = h(
    'button',
    { type: 'submit', class: 'button primary wide' },
    t((m) => m.login.logIn),
  );
  const form = h(
    'form',
    {
      class: 'login-form',
      'aria-labelledby': titleId,
      on: {
        submit: (event) => {
          event.preventDefault();
          void logIn();
        },
      },
    },
    h(
      'div',
      { class: 'field' },
      h(
        'label',
        { for: userId },
        t((m) => m.login.username),
      ),
      username,
    ),
    h(
      'div',
      { class: 'field' },
      h(
        'label',
        { for: passId },
        t((m) => m.login.password),
      ),
      password,
    ),
    submit,
  );
  const element = h(
    'main',
    { class: 'login', hidden: true },
    h('div', { class: 'login-tools' }, createLanguageSwitch()),
    h(
      'div',
      { class: 'login-card' },
      h('p', { class: 'brand-mark', 'aria-hidden': 'true' }, 'KB'),
      h(
        'h1',
        { id: titleId },
        t((m) => m.login.title),
      ),
      h(
        'p',
        { class: 'lead' },
        t((m) => m.login.lead),
      ),
      notice,
      form,
    ),
  );

  function say(message: Localized | undefined, tone: Tone = 'error'): void {
    notice.hidden = !message;
    notice.className = `notice ${tone}`;
    replace(notice, message);
  }

  async function logIn(): Promise<void> {
    submit.disabled = true;
    say(undefined);
    session.rememberUsername(username.value);
    try {
      const login = await api.auth.PostLogin({
        body: { username: username.value, password: password.value },
      });
      session.start(login.token, login.expire);
      const me = await api.auth.GetMe();
      password.value = '';
      onLoggedIn(me);
    } catch (err) {
      const failure = failureOf(err);
      if (!failure) say(t((m) => m.errors.network));
      else if (failure.status === 401) say(t((m) => m.login.wrongCredentials));
      else say(failureMessage(failure));
      password.select();
    } finally {
      submit.disabled = false;
    }
  }

  return {
    element,
    show(message, tone) {
      say(message, tone);
      if (!username.value) username.value = session.lastUsername();
      element.hidden = false;
      localizeTitle(t((m) => m.app.title(m.login.pageTitle)));
      (username.value ? password : username).focus();
    },
    hide() {
      element.hidden = true;
    },
  };
}
