import { fireEvent, screen, within } from '@testing-library/preact';

/**
 * Opens the menu of the menu button named `name` (a file row's "More actions for a.pdf"),
 * in `container` or the whole page, and gives the menu, to find its items in.
 */
export function openMenu(name: string | RegExp, container?: HTMLElement): HTMLElement {
  const button = (container ? within(container) : screen).getByRole('button', { name });
  fireEvent.click(button);
  return screen.getByRole('menu', { name });
}
