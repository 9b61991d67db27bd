import { useEffect, useState } from 'preact/hooks';

/** Where the app lays itself out for a phone (phone.css uses the same width). */
export const NARROW = '(max-width: 860px)';

/**
 * Where a conversation's head has too little width for its five buttons beside the title (two
 * panes on a small laptop or a tablet): its own actions go under More there too.
 */
export const HEAD_CROWDED = '(max-width: 1023px)';

/**
 * Whether `query` matches, kept up to date as the window is resized or turned: for the few
 * places where a narrow screen gets other controls, not only other styles.
 */
export function useMedia(query: string): boolean {
  const [matches, setMatches] = useState(() => matchMedia(query).matches);
  useEffect(() => {
    const list = matchMedia(query);
    const changed = () => setMatches(list.matches);
    changed();
    list.addEventListener('change', changed);
    return () => list.removeEventListener('change', changed);
  }, [query]);
  return matches;
}
