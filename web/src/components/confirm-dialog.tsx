import type { ComponentChildren } from 'preact';
import { messages, type Messages } from '../i18n/messages';
import { Dialog, DialogActions, openDialog } from './dialog';

export interface ConfirmQuestion {
  title: ComponentChildren;
  message: ComponentChildren;
  /** The button that says yes ("Delete user"); Cancel, the other one, has the focus first. */
  confirm: ComponentChildren;
  /** Yes destroys something: the button says so in red. */
  danger?: boolean;
}

/**
 * Asks before something that cannot be taken back; resolves whether the user said yes. The
 * question is worded in the current language, and again after a switch.
 */
export function confirmDialog(ask: (m: Messages) => ConfirmQuestion): Promise<boolean> {
  return openDialog<boolean>((done) => {
    const m = messages();
    const { title, message, confirm, danger } = ask(m);
    return (
      <Dialog title={title}>
        <p>{message}</p>
        <DialogActions>
          <button type="button" class="button" autofocus onClick={() => done(false)}>
            {m.dialogs.cancel}
          </button>
          <button
            type="button"
            class={danger ? 'button danger' : 'button primary'}
            onClick={() => done(true)}
          >
            {confirm}
          </button>
        </DialogActions>
      </Dialog>
    );
  }, false);
}
