import { Field } from '../components/field';
import { messages } from '../i18n/messages';

export interface NewKey {
  name: string;
  /** When the key stops working (ISO 8601); absent: until it is revoked. */
  expires_at?: string;
}

/** The first day a key may be chosen to last until: today, as the reader's calendar has it. */
export const firstExpiryDay = (now = new Date()) => localDay(now);

/** The end of `day` (`2026-12-31`) in the reader's time zone, as the service takes it. */
export function endOfDay(day: string): string {
  return new Date(`${day}T23:59:59.999`).toISOString();
}

function localDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * The form that makes a key: its name and, if wanted, the last day it works (a date picker;
 * empty: until revoked). `create` resolves whether it was made; then the form is cleared.
 */
export function CreateKeyForm({ create }: { create(key: NewKey): Promise<boolean> }) {
  const m = messages();

  async function submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const day = String(data.get('expires') ?? '');
    const made = await create({
      name: String(data.get('name') ?? '').trim(),
      ...(day ? { expires_at: endOfDay(day) } : {}),
    });
    if (made) form.reset();
  }

  return (
    <form class="card create-key" onSubmit={(event) => void submit(event)}>
      <h2>{m.account.createKey}</h2>
      <div class="form-row">
        <Field label={m.account.keyName} hint={m.account.keyNameHint}>
          {({ id, hintId }) => (
            <input
              id={id}
              name="name"
              autocomplete="off"
              required
              maxLength={100}
              pattern=".*\S.*"
              aria-describedby={hintId}
            />
          )}
        </Field>
        <Field label={m.account.expiry} hint={m.account.expiryHint}>
          {({ id, hintId }) => (
            <input
              id={id}
              name="expires"
              type="date"
              min={firstExpiryDay()}
              aria-describedby={hintId}
            />
          )}
        </Field>
        <button type="submit" class="button primary">
          {m.account.create}
        </button>
      </div>
    </form>
  );
}
