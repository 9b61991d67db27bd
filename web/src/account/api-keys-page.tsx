import { useEffect, useState } from 'preact/hooks';
import type { ApiKey } from '../api/services';
import { OutcomeLines, Page, useOutcome } from '../components/page';
import { useApp } from '../context';
import { t, type Localized } from '../i18n/bind';
import { failureText } from '../i18n/failure';
import { messages, type Messages } from '../i18n/messages';
import { ApiKeysTable } from './api-keys-table';
import { CreateKeyForm, type NewKey } from './create-key-form';
import { newKeyDialog } from './new-key-dialog';

/**
 * My API keys (`#/keys`): each with its name, first characters, when it was made and last used
 * and when it stops working; a new one made with a name and, if wanted, a last day, and shown
 * once; and each revoked, after a confirmation.
 */
export function ApiKeysPage() {
  const ctx = useApp();
  const { api, signal } = ctx;
  const outcome = useOutcome();
  const [keys, setKeys] = useState<ApiKey[] | undefined>();
  const m = messages();

  async function load(): Promise<void> {
    try {
      setKeys((await api.auth.GetApiKeys(undefined, { signal })).items);
    } catch (err) {
      complain(err, (reason, m) => m.account.loadFailed(reason));
    }
  }
  useEffect(() => void load(), []);

  function complain(err: unknown, what: (reason: string, m: Messages) => string): void {
    const failure = ctx.fail(err);
    if (failure.status === 401 || signal.aborted) return;
    outcome.failed(t((m) => what(failureText(failure, m), m)));
  }

  async function create(key: NewKey): Promise<boolean> {
    try {
      const made = await api.auth.PostApiKey({ body: key }, { signal });
      outcome.done(t((m) => m.account.keyCreated(made.name)));
      void newKeyDialog(made.name, made.key);
      await load();
      return true;
    } catch (err) {
      complain(err, (reason, m) => m.account.notCreated(reason));
      return false;
    }
  }

  async function revoke(key: ApiKey, done: Localized): Promise<void> {
    try {
      await api.auth.DeleteApiKey({ id: key.id }, { signal });
      outcome.done(done);
      await load();
    } catch (err) {
      complain(err, (reason, m) => m.account.notRevoked(reason));
    }
  }

  return (
    <Page class="keys-page" heading={m.account.myKeys}>
      <OutcomeLines outcome={outcome} />
      <div class="account-body">
        <p class="lead">{m.account.keysIntro}</p>
        <CreateKeyForm create={create} />
        {!keys ? (
          <p class="loading">{m.account.keysLoading}</p>
        ) : keys.length === 0 ? (
          <p class="empty">{m.account.noKeys}</p>
        ) : (
          <ApiKeysTable keys={keys} revoke={revoke} />
        )}
      </div>
    </Page>
  );
}
