/**
 * The web project's set-up (vitest.config.ts): a clean page for every test, and the few
 * browser features jsdom lacks that the app uses, done the way a browser does them.
 */
import { cleanup } from '@testing-library/preact';
import { afterEach } from 'vitest';

afterEach(() => {
  cleanup();
  document.body.replaceChildren();
  sessionStorage.clear();
  localStorage.clear();
});

const FOCUSABLE = 'button, input, select, textarea, a[href], [tabindex]:not([tabindex="-1"])';

/**
 * A modal `<dialog>` as the HTML standard has it, in the parts the app relies on: showModal()
 * opens it and focuses its `autofocus` element (else its first focusable one); close() and
 * Escape (a cancelable `cancel`, then `close`) close it; `close` fires on a later task.
 */
if (typeof HTMLDialogElement.prototype.showModal !== 'function') {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.open = true;
    const first = this.querySelector<HTMLElement>('[autofocus]') ?? this.querySelector(FOCUSABLE);
    (first as HTMLElement | null)?.focus();
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    if (!this.open) return;
    this.open = false;
    setTimeout(() => this.dispatchEvent(new Event('close')));
  };
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    const top = [...document.querySelectorAll('dialog')].filter((d) => d.open).at(-1);
    if (top?.dispatchEvent(new Event('cancel', { cancelable: true }))) top.close();
  });
}

// Media queries answer as on a phone-sized screen that is not touch-first: no query matches.
window.matchMedia ??= (query: string) =>
  ({
    matches: false,
    media: query,
    onchange: null,
    addEventListener() {},
    removeEventListener() {},
    addListener() {},
    removeListener() {},
    dispatchEvent: () => false,
  }) as MediaQueryList;

// jsdom lays nothing out, so there is nowhere to scroll to.
Element.prototype.scrollIntoView ??= function scrollIntoView() {};
