import { h, uid, type Child } from './dom';
import { t } from './i18n/bind';

/**
 * A modal `<dialog>`: focus stays inside, Escape cancels, focus returns to where it was.
 * `build` gives its content (the first `h2` titles it) and calls `done` with the answer.
 */
export function openDialog<T>(
  build: (dialog: HTMLDialogElement, done: (value: T) => void) => HTMLElement[],
  cancelled: T,
): Promise<T> {
  const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const titleId = uid('dialog-title');
  return new Promise<T>((resolve) => {
    let result = cancelled;
    const dialog = h('dialog', { class: 'dialog', 'aria-labelledby': titleId });
    const done = (value: T) => {
      result = value;
      dialog.close();
    };
    dialog.append(...build(dialog, done));
    dialog.querySelector('h2')?.setAttribute('id', titleId);
    dialog.addEventListener('close', () => {
      dialog.remove();
      previous?.focus();
      resolve(result);
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}

export function confirmDialog(options: {
  title: Child;
  message: Child;
  confirm: Child;
  danger?: boolean;
}): Promise<boolean> {
  return openDialog<boolean>(
    (_dialog, done) => [
      h('h2', null, options.title),
      h('p', null, options.message),
      h(
        'div',
        { class: 'dialog-actions' },
        h(
          'button',
          { type: 'button', class: 'button', autofocus: true, on: { click: () => done(false) } },
          t((m) => m.dialogs.cancel),
        ),
        h(
          'button',
          {
            type: 'button',
            class: options.danger ? 'button danger' : 'button primary',
            on: { click: () => done(true) },
          },
          options.confirm,
        ),
      ),
    ],
    false,
  );
}

/** Asks for a new password (8 to 128 characters, as the service requires). */
export function passwordDialog(options: {
  title: Child;
  message: Child;
}): Promise<string | undefined> {
  return openDialog<string | undefined>((_dialog, done) => {
    const inputId = uid('new-password');
    const input = h('input', {
      id: inputId,
      type: 'password',
      autocomplete: 'new-password',
      required: true,
      minlength: 8,
      maxlength: 128,
    });
    const form = h(
      'form',
      {
        on: {
          submit: (event) => {
            event.preventDefault();
            if (form.reportValidity()) done(input.value);
          },
        },
      },
      h('h2', null, options.title),
      h('p', null, options.message),
      h(
        'div',
        { class: 'field' },
        h(
          'label',
          { for: inputId },
          t((m) => m.dialogs.newPassword),
        ),
        input,
        h(
          'p',
          { class: 'hint' },
          t((m) => m.dialogs.passwordHint),
        ),
      ),
      h(
        'div',
        { class: 'dialog-actions' },
        h(
          'button',
          { type: 'button', class: 'button', on: { click: () => done(undefined) } },
          t((m) => m.dialogs.cancel),
        ),
        h(
          'button',
          { type: 'submit', class: 'button primary' },
          t((m) => m.dialogs.setPassword),
        ),
      ),
    );
    queueMicrotask(() => input.focus());
    return [form];
  }, undefined);
}
