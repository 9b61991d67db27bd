/**
 * Which language the app speaks: chosen once from the browser's languages, switchable, and
 * remembered in localStorage (a choice outlives the tab, unlike the session token). The codes
 * are the service's own (`zh`, `en`); `<html lang>` gets the full tag.
 *
 * The language is a signal: a component that reads it while rendering (through
 * `currentLocale()`, `messages()` or `now()`) renders again when it is switched.
 */
import { signal } from '@preact/signals';
import { isLanguage, LANGUAGE_TAG, type Language } from '#shared/i18n/language';

const STORAGE_KEY = 'kbchat.locale';
/** What earlier versions of the app stored for Chinese. */
const LEGACY_CHINESE = 'zh-CN';

/**
 * The first of the browser's languages that the app speaks. Every Chinese variant gets
 * Simplified Chinese (closer to Traditional than English is); a browser that asks for neither
 * gets Chinese too, because the people this service is for read Chinese first.
 */
export function detectLocale(languages: readonly string[]): Language {
  for (const language of languages) {
    const primary = language.toLowerCase().split('-')[0];
    if (primary === 'zh') return 'zh';
    if (primary === 'en') return 'en';
  }
  return 'zh';
}

/** A stored choice, as this version or an earlier one wrote it. */
export function storedLanguage(value: string | null): Language | undefined {
  if (value === LEGACY_CHINESE) return 'zh';
  return isLanguage(value) ? value : undefined;
}

function remembered(): Language | undefined {
  try {
    return storedLanguage(localStorage.getItem(STORAGE_KEY));
  } catch {
    return undefined; // storage blocked: the browser's languages decide
  }
}

const current = signal<Language>(
  remembered() ?? detectLocale(navigator.languages ?? [navigator.language]),
);

export const currentLocale = (): Language => current.value;

/** Switches the language of everything on screen, and remembers the choice. */
export function setLocale(language: Language): void {
  try {
    localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // Not remembered; the switch still applies to this page.
  }
  if (language === current.peek()) return;
  current.value = language;
  applyLocale();
}

/** Puts the language on `<html lang>` (the shell is served without knowing it). */
export function applyLocale(): void {
  document.documentElement.lang = LANGUAGE_TAG[current.peek()];
}
