import { effect, signal } from '@preact/signals';
import { messages, type Messages } from './messages';
import { onLocaleChange } from './locale';

/** A text chosen from the current language's messages; it follows the language when it changes. */
export interface Localized {
  readonly select: (m: Messages) => string;
}

const LOCALIZED = Symbol('localized');
type Marked = Localized & { [LOCALIZED]: true };

/** Marks a text as translated: `h('button', null, t((m) => m.chat.send))`. */
export const t = (select: (m: Messages) => string): Localized =>
  ({ select, [LOCALIZED]: true }) as Marked;

export const isLocalized = (value: unknown): value is Localized =>
  typeof value === 'object' && value !== null && LOCALIZED in value;

/**
 * The text in the current language. A component that calls it while rendering renders again
 * after a language switch, so `{now(text)}` in JSX follows the language.
 */
export const now = (text: Localized) => text.select(messages());

// Bound nodes are held weakly: a screen that is thrown away is collected as before, and a
// language switch updates whatever is still alive.
const texts = new Set<WeakRef<Text>>();
const attributes = new Set<WeakRef<Element>>();
const attributeTexts = new WeakMap<Element, Map<string, Localized>>();
const textSelectors = new WeakMap<Text, Localized>();

/** Forgets collected nodes now and then, so that a long session's set stays small. */
let sweepAt = 1024;
function remember<T extends object>(set: Set<WeakRef<T>>, value: T): void {
  set.add(new WeakRef(value));
  if (set.size < sweepAt) return;
  for (const ref of set) if (!ref.deref()) set.delete(ref);
  sweepAt = Math.max(1024, set.size * 2);
}

/** A text node that shows `text` in the current language, now and after every switch. */
export function localizedText(text: Localized): Text {
  const node = document.createTextNode(now(text));
  textSelectors.set(node, text);
  remember(texts, node);
  return node;
}

/** Sets an attribute (aria-label, title, placeholder…) that follows the language. */
export function localizeAttribute(element: Element, name: string, text: Localized): void {
  element.setAttribute(name, now(text));
  let map = attributeTexts.get(element);
  if (!map) {
    attributeTexts.set(element, (map = new Map()));
    remember(attributes, element);
  }
  map.set(name, text);
}

const title = signal<Localized | undefined>(undefined);
effect(() => {
  if (title.value) document.title = now(title.value);
});

/** The document's title, in the current language (now and after every switch). */
export function localizeTitle(text: Localized): void {
  title.value = text;
}

onLocaleChange(() => {
  const m = messages();
  for (const ref of texts) {
    const node = ref.deref();
    const text = node && textSelectors.get(node);
    if (node && text) node.data = text.select(m);
    else texts.delete(ref);
  }
  for (const ref of attributes) {
    const element = ref.deref();
    const map = element && attributeTexts.get(element);
    if (!element || !map) {
      attributes.delete(ref);
      continue;
    }
    for (const [name, text] of map) element.setAttribute(name, text.select(m));
  }
});
