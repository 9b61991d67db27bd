/**
 * Until the main view is a component itself: shows a page component in the main view's
 * outlet, with the session it needs, and takes it away again.
 */
import { render, type ComponentChild } from 'preact';
import { Session, type AppContext } from './context';

export function mountPage(outlet: HTMLElement, ctx: AppContext, page: ComponentChild): void {
  render(<Session.Provider value={ctx}>{page}</Session.Provider>, outlet);
}

export function unmountPage(outlet: HTMLElement): void {
  render(null, outlet);
}
