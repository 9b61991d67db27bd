/**
 * The citation a document was opened from, so that closing the viewer brings the focus back
 * to it. Citations are plain links to the viewer's route (`#/doc/…`); a click on one, by mouse,
 * keyboard or screen reader, is remembered here.
 */
let opener: HTMLElement | undefined;

export const VIEWER_LINK = 'a[href^="#/doc/"]';

/** Remembers the viewer links the user follows; returns what stops it. */
export function trackOpeners(): () => void {
  const remember = (event: Event) => {
    const link = event.target instanceof Element ? event.target.closest(VIEWER_LINK) : null;
    if (link instanceof HTMLElement) opener = link;
  };
  document.addEventListener('click', remember, true);
  return () => document.removeEventListener('click', remember, true);
}

/** The link the viewer was opened from, if it is still on the page; forgotten once taken. */
export function takeOpener(): HTMLElement | undefined {
  const taken = opener;
  opener = undefined;
  return taken?.isConnected ? taken : undefined;
}
