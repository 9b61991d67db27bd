import { useEffect, useState } from 'preact/hooks';
import type { Login } from '../api/services';
import { confirmDialog } from '../components/confirm-dialog';
import { OutcomeLines, Page, useOutcome } from '../components/page';
import { useApp } from '../context';
import { t, type Localized } from '../i18n/bind';
import { failureText } from '../i18n/failure';
import { messages, type Messages } from '../i18n/messages';
import { PasswordForm, type PasswordChange } from './password-form';

export interface AccountPageProps {
  /** A new token for this session (the old one no longer works): the session takes it. */
  renewed(login: Login): void;
}

/**
 * My account (`#/account`): who I am, changing my password (not offered when local passwords
 * are off: single sign-on manages them) and signing out my other sessions. Both end every
 * session of mine, this one included, and answer a new token for this one.
 */
export function AccountPage({ renewed }: AccountPageProps) {
  const ctx = useApp();
  const { api, me, signal } = ctx;
  const outcome = useOutcome();
  // Until the sign-in options are known the form is offered: the service refuses it anyway
  // when passwords are off, and a service that cannot say keeps the form that works today.
  const [passwords, setPasswords] = useState(true);
  const m = messages();

  useEffect(() => {
    api.auth.GetSignInOptions(undefined, { signal }).then(
      (options) => setPasswords(options.password),
      () => undefined,
    );
  }, []);

  /** Why a call failed, in the page's words (`what` says what was not done). */
  function complain(err: unknown, what: (reason: string, m: Messages) => string): void {
    const failure = ctx.fail(err);
    if (failure.status === 401) return;
    outcome.failed(t((m) => what(failureText(failure, m), m)));
  }

  /** Runs a call that answers a new token for this session, and says how it went. */
  async function renewing(
    done: Localized,
    notDone: (reason: string, m: Messages) => string,
    call: () => Promise<Login>,
  ): Promise<boolean> {
    try {
      renewed(await call());
      outcome.done(done);
      return true;
    } catch (err) {
      complain(err, notDone);
      return false;
    }
  }

  const changePassword = (change: PasswordChange) =>
    renewing(
      t((m) => m.account.passwordChanged),
      (reason, m) => m.account.passwordNotChanged(reason),
      () => api.auth.PutPassword({ body: change }, { signal }),
    );

  async function logoutOthers(): Promise<void> {
    const sure = await confirmDialog((m) => ({
      title: m.account.logoutOthersTitle,
      message: m.account.logoutOthersMessage,
      confirm: m.account.logoutOthersConfirm,
    }));
    if (!sure) return;
    await renewing(
      t((m) => m.account.loggedOutOthers),
      (reason, m) => m.account.logoutOthersFailed(reason),
      () => api.auth.PostLogoutOthers(undefined, { signal }),
    );
  }

  const admin = me.role === 'SUPER_ADMIN';
  return (
    <Page class="account-page" heading={m.account.myAccount}>
      <OutcomeLines outcome={outcome} />
      <div class="account-body">
        <section class="card" aria-labelledby="account-who">
          <h2 id="account-who">{m.account.whoAmI}</h2>
          <dl class="facts">
            <div>
              <dt>{m.account.username}</dt>
              <dd>{me.username}</dd>
            </div>
            <div>
              <dt>{m.account.role}</dt>
              <dd>
                <span class={admin ? 'badge admin' : 'badge'}>
                  {admin ? m.account.roleSuperAdmin : m.account.roleUser}
                </span>
              </dd>
            </div>
          </dl>
        </section>
        {passwords ? (
          <PasswordForm change={changePassword} />
        ) : (
          <section class="card" aria-labelledby="account-password">
            <h2 id="account-password">{m.account.changePassword}</h2>
            <p class="notice info">{m.account.passwordsOff}</p>
          </section>
        )}
        <section class="card" aria-labelledby="account-sessions">
          <h2 id="account-sessions">{m.account.sessions}</h2>
          <p>{m.account.sessionsHelp}</p>
          <button type="button" class="button" onClick={() => void logoutOthers()}>
            {m.account.logoutOthers}
          </button>
        </section>
      </div>
    </Page>
  );
}
