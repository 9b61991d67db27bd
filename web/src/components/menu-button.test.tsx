import { fireEvent, render, screen, within } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import { MenuButton, useActionLook } from './menu-button';

/** An action as the app's are: a small button in a row, an item inside a menu. */
function Action({ label, onRun, disabled }: { label: string; onRun?(): void; disabled?: boolean }) {
  const look = useActionLook('button small');
  return (
    <button type="button" {...look} disabled={disabled} onClick={onRun}>
      {label}
    </button>
  );
}

function show(onRename = vi.fn()) {
  render(
    <div>
      <Action label="Download" />
      <MenuButton label="More…" name="More actions for plan.pdf">
        <Action label="Rename" onRun={onRename} />
        <Action label="Busy" disabled />
        <Action label="Move" />
        <Action label="Delete" />
      </MenuButton>
      <button type="button">After</button>
    </div>,
  );
  const button = screen.getByRole('button', { name: 'More actions for plan.pdf' });
  return { button, onRename };
}

const focused = () => document.activeElement?.textContent;

describe('a menu button', () => {
  it('is a button that says it opens a menu; its actions are the menu’s items, out of sight', () => {
    const { button } = show();
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(button.textContent).toBe('More…');
    // The action beside it is an ordinary button; those in the menu are not seen until opened.
    expect(screen.getByRole('button', { name: 'Download' }).className).toBe('button small');
    expect(screen.queryByRole('menuitem')).toBeNull();

    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const menu = screen.getByRole('menu', { name: 'More actions for plan.pdf' });
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Rename', 'Busy', 'Move', 'Delete']);
    expect(within(menu).getByRole('menuitem', { name: 'Move' }).getAttribute('tabindex')).toBe(
      '-1',
    );
    expect(focused()).toBe('Rename');
  });

  it('moves by the arrow keys, Home and End, skipping what cannot be used, and wraps round', () => {
    const { button } = show();
    fireEvent.keyDown(button, { key: 'ArrowUp' });
    expect(focused()).toBe('Delete');
    const menu = screen.getByRole('menu');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(focused()).toBe('Rename');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(focused()).toBe('Move');
    fireEvent.keyDown(document.activeElement!, { key: 'Home' });
    expect(focused()).toBe('Rename');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
    expect(focused()).toBe('Delete');
    fireEvent.keyDown(document.activeElement!, { key: 'End' });
    expect(focused()).toBe('Delete');
    expect(menu.hidden).toBe(false);
  });

  it('closes on Escape and gives the focus back to its button', () => {
    const { button } = show();
    fireEvent.keyDown(button, { key: 'ArrowDown' });
    expect(focused()).toBe('Rename');
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('closes once an item is chosen, the focus back on its button before the item acts', () => {
    const focusWhenRun: (Element | null)[] = [];
    const { button } = show(vi.fn(() => focusWhenRun.push(document.activeElement)));
    fireEvent.click(button);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Rename' }));
    // A dialog the item opens gives the focus back to where it was: the button, still there.
    expect(focusWhenRun).toEqual([button]);
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });

  it('closes on Tab, on a click elsewhere, and when the button is pressed again', () => {
    const { button } = show();
    fireEvent.click(button);
    fireEvent.keyDown(document.activeElement!, { key: 'Tab' });
    expect(button.getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(button);
    fireEvent.pointerDown(screen.getByRole('button', { name: 'After' }));
    expect(button.getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(button);
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });
});
