/**
 * Builds DOM nodes. Strings always become text nodes: nothing here parses markup (only the
 * Markdown renderer does, through the page's one Trusted Types policy). Translated texts
 * (`t(…)`) become nodes and attributes that follow the language.
 */
import { isLocalized, localizeAttribute, localizedText, type Localized } from './i18n/bind';

export type Child = Node | string | number | Localized | false | null | undefined | Child[];

type Listener<E extends Event = Event> = (event: E) => void;

export interface Props {
  class?: string;
  /** Event listeners: `on: { click: … }`. */
  on?: { [K in keyof HTMLElementEventMap]?: Listener<HTMLElementEventMap[K]> };
  /** Properties set directly (`value`, `checked`, …), for form controls. */
  props?: Record<string, unknown>;
  /** Any other attribute; `false`, null and undefined leave it out, `true` sets it empty. */
  [attribute: string]: unknown;
}

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props?: Props | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (props) {
    for (const [name, value] of Object.entries(props)) {
      if (name === 'on') {
        for (const [type, listener] of Object.entries(value as Record<string, Listener>)) {
          element.addEventListener(type, listener);
        }
      } else if (name === 'props') {
        Object.assign(element, value);
      } else if (isLocalized(value)) {
        localizeAttribute(element, name, value);
      } else if (value === true) {
        element.setAttribute(name, '');
      } else if (value !== false && value !== null && value !== undefined) {
        element.setAttribute(name, String(value));
      }
    }
  }
  append(element, ...children);
  return element;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, ...child);
    else if (isLocalized(child)) parent.appendChild(localizedText(child));
    else parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces the element's content. */
export function replace(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}

let ids = 0;
/** A page-unique id for label/aria references. */
export function uid(prefix: string): string {
  ids += 1;
  return `${prefix}-${ids}`;
}
