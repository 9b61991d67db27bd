import { signal } from '@preact/signals';

/**
 * The question being typed, kept in sessionStorage under `key`: a reload, or a login after
 * the session ended, finds it again.
 */
export function createDraft(key: string) {
  const text = signal(sessionStorage.getItem(key) ?? '');
  return {
    text,
    set(value: string): void {
      text.value = value;
      if (value) sessionStorage.setItem(key, value);
      else sessionStorage.removeItem(key);
    },
  };
}
