import { h } from './dom';
import { localizeAttribute, type Localized } from './i18n/bind';

export interface ProgressBar {
  readonly element: HTMLElement;
  /**
   * Moves the bar: `fraction` 0…1, or undefined when how far is not known (the bar then
   * shows that it is busy). `text` says it in words ("Indexing: 40 of 120 chunks"), for
   * screen readers that read the value.
   */
  set(fraction: number | undefined, text: Localized): void;
  /** Names the bar anew ("Uploading a.pdf", then "Processing a.pdf"). */
  label(label: Localized): void;
}

/**
 * A progress bar that is updated in place: it keeps its node, so that assistive technology
 * sees one bar whose value changes, not a new bar every second. It is not a live region —
 * its value is read when the user asks for it; what is worth announcing (a file is ready, a
 * file failed) goes to the panel's status region instead, once.
 *
 * An ARIA progressbar rather than `<progress>`: its value text carries the phase and the
 * counts, where `<progress>` would only say a percentage.
 */
export function createProgressBar(label: Localized): ProgressBar {
  const fill = h('span', { class: 'progress-fill' });
  const element = h(
    'div',
    { class: 'progress', role: 'progressbar', 'aria-valuemin': 0, 'aria-valuemax': 100 },
    fill,
  );
  localizeAttribute(element, 'aria-label', label);
  return {
    element,
    set(fraction, text) {
      const known = fraction !== undefined;
      element.classList.toggle('indeterminate', !known);
      if (known) {
        const percent = Math.round(Math.min(1, Math.max(0, fraction)) * 100);
        element.setAttribute('aria-valuenow', String(percent));
        element.dataset.value = String(fraction);
        fill.style.width = `${percent}%`;
      } else {
        element.removeAttribute('aria-valuenow');
        delete element.dataset.value;
        fill.style.removeProperty('width');
      }
      localizeAttribute(element, 'aria-valuetext', text);
    },
    label: (text) => localizeAttribute(element, 'aria-label', text),
  };
}
