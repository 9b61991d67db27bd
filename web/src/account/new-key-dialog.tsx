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

/** What the dialog last said under the key: that it was copied, or a warning (not copied). */
interface Said {
  text: Localized;
  warning: boolean;
}

function NewKey({ name, secret, close }: { name: string; secret: string; close(): void }) {
  const [said, setSaid] = useState<Said | undefined>();
  // Done closes at once after a copy; before one, it warns first (Enter twice must not lose it).
  const [copied, setCopied] = useState(false);
  const [warned, setWarned] = useState(false);
  const m = messages();

  async function copy(): Promise<void> {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
      setSaid({ text: t((m) => m.account.copied), warning: false });
    } catch {
      setSaid({ text: t((m) => m.account.copyFailed), warning: true });
    }
  }

  function done(): void {
    if (copied || warned) return close();
    setWarned(true);
    setSaid({ text: t((m) => m.account.notCopied), warning: true });
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
      {/* A key not copied is a warning, in the warning's colours like the one above; only a
          copy that worked is said in the success colour. */}
      <p class={said?.warning ? 'copy-status notice warning' : 'copy-status'} role="status">
        {said && now(said.text)}
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
