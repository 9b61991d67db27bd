import { effect, signal } from '@preact/signals';
import { messages, type Messages } from './messages';

/**
 * A text chosen from the current language's messages, decided now and worded later: what a
 * store or a call says (a failure, an announcement) follows the language when it changes.
 */
export interface Localized {
  readonly select: (m: Messages) => string;
}

/** Marks a text as translated: `t((m) => m.chat.send)`. */
export const t = (select: (m: Messages) => string): Localized => ({ select });

/**
 * The text in the current language. A component that calls it while rendering renders again
 * after a language switch, so `{now(text)}` in JSX follows the language.
 */
export const now = (text: Localized) => text.select(messages());

const title = signal<Localized | undefined>(undefined);
effect(() => {
  if (title.value) document.title = now(title.value);
});

/** The document's title, in the current language (now and after every switch). */
export function localizeTitle(text: Localized): void {
  title.value = text;
}
