import { useState } from 'preact/hooks';

let made = 0;

/**
 * An id unique in the page, kept for the component's life, for label and ARIA references.
 * Not Preact's useId: that one counts per render root, and every dialog is a root of its own
 * (openDialog), so a dialog's title and the page's heading got the same id.
 */
export function useUniqueId(prefix: string): string {
  const [id] = useState(() => `${prefix}-${(made += 1)}`);
  return id;
}
