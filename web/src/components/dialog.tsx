import { createContext, render, type ComponentChildren, type VNode } from 'preact';
import { useContext, useLayoutEffect, useRef } from 'preact/hooks';
import { useUniqueId } from './unique-id';

/** What the dialog being shown is told by {@link openDialog}: that it was closed. */
const DialogHost = createContext<{ closed(): void }>({ closed() {} });

/**
 * A modal `<dialog>`: focus stays inside and starts on its `autofocus` control (else its first
 * one), Escape cancels, and {@link openDialog} brings the focus back to where it was.
 */
export function Dialog({
  title,
  children,
}: {
  title: ComponentChildren;
  children: ComponentChildren;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useUniqueId('dialog-title');
  const host = useContext(DialogHost);
  useLayoutEffect(() => ref.current?.showModal(), []);
  return (
    <dialog ref={ref} class="dialog" aria-labelledby={titleId} onClose={host.closed}>
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}

/**
 * Shows the dialog `build` makes until it closes: `done(value)` closes it with an answer;
 * Escape closes it with `cancelled`. `build` runs as a component renders, so the texts it reads
 * follow the language while the dialog is open.
 */
export function openDialog<T>(
  build: (done: (value: T) => void) => VNode,
  cancelled: T,
): Promise<T> {
  const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const container = document.body.appendChild(document.createElement('div'));
  return new Promise<T>((resolve) => {
    let answer = cancelled;
    const done = (value: T) => {
      answer = value;
      container.querySelector('dialog')?.close();
    };
    const closed = () => {
      render(null, container);
      container.remove();
      previous?.focus();
      resolve(answer);
    };
    const Shown = () => build(done);
    render(
      <DialogHost.Provider value={{ closed }}>
        <Shown />
      </DialogHost.Provider>,
      container,
    );
  });
}

/** The row of buttons at the bottom of a dialog, the one that answers "yes" last. */
export function DialogActions({ children }: { children: ComponentChildren }) {
  return <div class="dialog-actions">{children}</div>;
}
