import { useState } from 'preact/hooks';
import { Dialog, DialogActions, openDialog } from '../components/dialog';
import { Field } from '../components/field';
import { now, t, type Localized } from '../i18n/bind';
import { messages } from '../i18n/messages';

/**
 * Shows a new key, the only time it is ever shown: in a read-only box, whole (selected on focus, so that it
 * can be copied by hand too), a Copy button (focused first), and the warning that it will not be
 * shown again; Done before a copy warns once more.
 */
export function newKeyDialog(name: string, key: string): Promise<void> {
  return openDialog<void>((done) => <NewKey name={name} secret={key} close={done} />, undefined);
}

function NewKey({ name, secret, close }: { name: string; secret: string; close(): void }) {
  const [said, setSaid] = useState<Localized | undefined>();
  // Done closes at once after a copy; before one, it warns first (Enter twice must not lose it).
  const [copied, setCopied] = useState(false);
  const [warned, setWarned] = useState(false);
  const m = messages();

  async function copy(): Promise<void> {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
      setSaid(t((m) => m.account.copied));
    } catch {
      setSaid(t((m) => m.account.copyFailed));
    }
  }

  function done(): void {
    if (copied || warned) return close();
    setWarned(true);
    setSaid(t((m) => m.account.notCopied));
  }

  return (
    <Dialog title={m.account.newKeyTitle(name)}>
      <p class="notice warning">{m.account.newKeyWarning}</p>
      <Field label={m.account.newKey} class="new-key">
        {({ id }) => (
          <textarea
            id={id}
            class="secret"
            readOnly
            rows={2}
            value={secret}
            spellcheck={false}
            autocomplete="off"
            onFocus={(event) => event.currentTarget.select()}
          />
        )}
      </Field>
      <p class="copy-status" role="status">
        {said && now(said)}
      </p>
      <DialogActions>
        <button type="button" class="button primary" autofocus onClick={() => void copy()}>
          {m.account.copy}
        </button>
        <button type="button" class="button" onClick={done}>
          {m.account.done}
        </button>
      </DialogActions>
    </Dialog>
  );
}
