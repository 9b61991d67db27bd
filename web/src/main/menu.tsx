import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useUniqueId } from '../components/unique-id';

export interface MenuProps {
  /** `user-menu`, `admin-menu`: where it sits and how it looks. */
  class: string;
  /** The button's content: its visible words come first in its name. */
  button: ComponentChildren;
  /** The list's items (`<li>` with a link or a button each). */
  children: ComponentChildren;
}

/**
 * A disclosure menu in the top bar: a button that shows and hides a list of links (and
 * buttons). Tab moves through the list as through any links; Escape closes it and gives the
 * focus back to the button; a click or the focus elsewhere closes it, and so does choosing an
 * item. A disclosure, not an ARIA menu: its items are ordinary links, read as such.
 */
export function Menu(props: MenuProps) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const listId = useUniqueId('menu');

  useEffect(() => {
    if (!open) return;
    const away = (event: Event) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const escape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('pointerdown', away);
    document.addEventListener('focusin', away);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('pointerdown', away);
      document.removeEventListener('focusin', away);
      document.removeEventListener('keydown', escape);
    };
  }, [open]);

  /** An item was chosen (a link followed, a button pressed): the menu has done its job. */
  function chosen(event: MouseEvent): void {
    if ((event.target as Element).closest('a, button')) setOpen(false);
  }

  return (
    <div class={`menu ${props.class}`} ref={root}>
      <button
        ref={button}
        type="button"
        class="menu-button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen(!open)}
      >
        {props.button}
        <span class="menu-caret" aria-hidden="true" />
      </button>
      <ul id={listId} class="menu-list" hidden={!open} onClick={chosen}>
        {props.children}
      </ul>
    </div>
  );
}
