import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { now, type Localized } from '../i18n/bind';
import { messages } from '../i18n/messages';
import { Dialog, DialogActions } from './dialog';
import { Notice } from './notice';

export interface FormDialogProps {
  title: ComponentChildren;
  /** A paragraph under the title; `info` shows it as a notice ("shared with administrators"). */
  message?: ComponentChildren;
  info?: boolean;
  /** The submit button's words ("Create collection"). */
  submit: ComponentChildren;
  /**
   * The form was sent and its fields are valid. Resolves to why it could not be done, shown in
   * the dialog so that nothing typed is lost; to nothing when it was done (or is ignored). The
   * submit button waits meanwhile.
   */
  onSubmit(data: FormData): Promise<Localized | void> | Localized | void;
  onCancel(): void;
  /** The fields; the one to type in first has `autofocus`. */
  children: ComponentChildren;
}

/** A dialog that is a form: its fields, why it was refused, Cancel and the submit button. */
export function FormDialog(props: FormDialogProps) {
  const [problem, setProblem] = useState<Localized | undefined>();
  const [busy, setBusy] = useState(false);

  async function submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    if (busy || !form.reportValidity()) return;
    setBusy(true);
    try {
      setProblem((await props.onSubmit(new FormData(form))) ?? undefined);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog title={props.title}>
      <form onSubmit={(event) => void submit(event)}>
        {props.message !== undefined && (
          <p class={props.info ? 'notice info' : undefined}>{props.message}</p>
        )}
        {props.children}
        <Notice tone="error" text={problem && now(problem)} />
        <DialogActions>
          <button type="button" class="button" onClick={props.onCancel}>
            {messages().dialogs.cancel}
          </button>
          <button type="submit" class="button primary" disabled={busy}>
            {props.submit}
          </button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
