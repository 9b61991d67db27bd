import { createContext, type ComponentChildren, type RefObject } from 'preact';
import { useContext, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { useUniqueId } from './unique-id';

/** True inside a menu's list: an action there is one of its items, not a button in a row. */
const InMenu = createContext(false);

/**
 * The class and role an action takes: `rowClass` where it stands on its own, a menu item
 * (reached by the arrow keys, not by Tab) inside a {@link MenuButton}'s list.
 */
export function useActionLook(
  rowClass: string,
  menuClass = 'menu-item',
): { class: string; role?: 'menuitem'; tabIndex?: number } {
  return useContext(InMenu)
    ? { class: menuClass, role: 'menuitem', tabIndex: -1 }
    : { class: rowClass };
}

export interface MenuButtonProps {
  /** The button's visible words ("More…"). */
  label: ComponentChildren;
  /** Its name when the words do not say what for ("More actions for a.pdf"); starts with them. */
  name?: string;
  /** The menu's own class, beside `more-menu`. */
  class?: string;
  buttonRef?: RefObject<HTMLButtonElement | null>;
  /** The actions: components that take their look from {@link useActionLook}. */
  children: ComponentChildren;
}

/**
 * A button that opens a menu of actions (the ARIA menu button): Enter, Space or ArrowDown open
 * it on its first item, ArrowUp on its last; the arrow keys, Home and End move between the
 * items; Escape closes it and gives the focus back to the button, and so does choosing an item
 * (before the item acts, so that a dialog it opens gives the focus back there too). Tab, a
 * click or the focus elsewhere close it. The list stays in the page while closed: an item's
 * state (busy, a hidden file input) outlives the menu.
 */
export function MenuButton(props: MenuButtonProps) {
  const [open, setOpen] = useState(false);
  const start = useRef<'first' | 'last'>('first');
  const root = useRef<HTMLDivElement>(null);
  const ownButton = useRef<HTMLButtonElement>(null);
  const button = props.buttonRef ?? ownButton;
  const list = useRef<HTMLDivElement>(null);
  const buttonId = useUniqueId('menu-button');
  const listId = useUniqueId('menu');

  const items = () =>
    [...(list.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])].filter(
      (item) => !item.hidden && !(item as HTMLButtonElement).disabled,
    );

  useLayoutEffect(() => {
    if (!open) return;
    const all = items();
    (start.current === 'last' ? all.at(-1) : all[0])?.focus();
    // A row at the bottom of a scrolled panel: the menu scrolls into sight, not out of it.
    list.current?.scrollIntoView({ block: 'nearest' });
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const away = (event: Event) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', away);
    document.addEventListener('focusin', away);
    return () => {
      document.removeEventListener('pointerdown', away);
      document.removeEventListener('focusin', away);
    };
  }, [open]);

  function show(at: 'first' | 'last'): void {
    start.current = at;
    setOpen(true);
  }

  function close(): void {
    setOpen(false);
    button.current?.focus();
  }

  function move(event: KeyboardEvent): void {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    let next: HTMLElement | undefined;
    if (event.key === 'ArrowDown') next = all[(at + 1) % all.length];
    else if (event.key === 'ArrowUp') next = all[(at - 1 + all.length) % all.length];
    else if (event.key === 'Home') next = all[0];
    else if (event.key === 'End') next = all.at(-1);
    else if (event.key === 'Escape') close();
    else {
      // Tab leaves the menu for the next control, closing it on the way.
      if (event.key === 'Tab') setOpen(false);
      return;
    }
    event.preventDefault();
    event.stopPropagation();
    next?.focus();
  }

  return (
    <div class={props.class ? `more-menu ${props.class}` : 'more-menu'} ref={root}>
      <button
        ref={button}
        id={buttonId}
        type="button"
        class="button small more-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={listId}
        aria-label={props.name}
        onClick={() => (open ? setOpen(false) : show('first'))}
        onKeyDown={(event) => {
          if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
          event.preventDefault();
          show(event.key === 'ArrowDown' ? 'first' : 'last');
        }}
      >
        {props.label}
        <span class="menu-caret" aria-hidden="true" />
      </button>
      <div
        ref={list}
        id={listId}
        role="menu"
        class="more-menu-list"
        aria-labelledby={buttonId}
        hidden={!open}
        onKeyDown={move}
        onClickCapture={(event) => {
          if ((event.target as Element).closest('[role="menuitem"]')) close();
        }}
      >
        <InMenu.Provider value={true}>{props.children}</InMenu.Provider>
      </div>
    </div>
  );
}
