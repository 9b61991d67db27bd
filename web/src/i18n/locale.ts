/**
 * Which language the app speaks: chosen once from the browser's languages, switchable, and
 * remembered in localStorage (a choice outlives the tab, unlike the session token).
 *
 * The language is a signal: a component that reads it while rendering (through
 * `currentLocale()`, `messages()` or `now()`) renders again when it is switched.
 */
import { signal } from '@preact/signals';

export const LOCALES = ['zh-CN', 'en'] as const;
export type Locale = (typeof LOCALES)[number];

const STORAGE_KEY = 'kbchat.locale';

const isLocale = (value: unknown): value is Locale => LOCALES.includes(value as Locale);

/**
 * The first of the browser's languages that the app speaks. Every Chinese variant gets
 * Simplified Chinese (closer to Traditional than English is); a browser that asks for neither
 * gets Chinese too, because the people this service is for read Chinese first.
 */
export function detectLocale(languages: readonly string[]): Locale {
  for (const language of languages) {
    const primary = language.toLowerCase().split('-')[0];
    if (primary === 'zh') return 'zh-CN';
    if (primary === 'en') return 'en';
  }
  return 'zh-CN';
}

function storedLocale(): Locale | undefined {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return isLocale(value) ? value : undefined;
  } catch {
    return undefined; // storage blocked: the browser's languages decide
  }
}

const current = signal<Locale>(
  storedLocale() ?? detectLocale(navigator.languages ?? [navigator.language]),
);
const listeners = new Set<(locale: Locale) => void>();

export const currentLocale = (): Locale => current.value;

/** Switches the language of everything on screen, and remembers the choice. */
export function setLocale(locale: Locale): void {
  try {
    localStorage.setItem(STORAGE_KEY, locale);
  } catch {
    // Not remembered; the switch still applies to this page.
  }
  if (locale === current.peek()) return;
  current.value = locale;
  document.documentElement.lang = locale;
  for (const listener of listeners) listener(locale);
}

/** Calls `listener` after every switch, until `signal` aborts. */
export function onLocaleChange(listener: (locale: Locale) => void, signal?: AbortSignal): void {
  listeners.add(listener);
  signal?.addEventListener('abort', () => listeners.delete(listener), { once: true });
}

/** Puts the detected language on `<html lang>` (the shell is served without knowing it). */
export function applyLocale(): void {
  document.documentElement.lang = current.peek();
}
