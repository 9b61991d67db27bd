import { useEffect, useRef, useState } from 'preact/hooks';

export interface PageOf<Item> {
  items: Item[];
  total: number;
}

export interface ShownPage<Item> extends PageOf<Item> {
  page: number;
  pages: number;
}

/**
 * One page of a long list from the service, loaded when the component mounts and again on
 * `load()` (after a change) or `go(page)`. A page left empty by a change (its last item
 * deleted) gives way to the one before. `failed` hears why a load failed; what was shown stays.
 */
export function usePagedList<Item>(
  size: number,
  fetchPage: (page: number, size: number) => Promise<PageOf<Item>>,
  failed: (err: unknown) => void,
) {
  const [shown, setShown] = useState<ShownPage<Item> | undefined>(undefined);
  const page = useRef(1);

  async function load(): Promise<void> {
    try {
      const { items, total } = await fetchPage(page.current, size);
      if (items.length === 0 && page.current > 1) {
        page.current -= 1;
        return load();
      }
      const pages = Math.max(1, Math.ceil(total / size));
      setShown({ items, total, page: page.current, pages });
    } catch (err) {
      failed(err);
    }
  }

  useEffect(() => void load(), []);

  return {
    shown,
    load,
    go(to: number) {
      page.current = to;
      void load();
    },
  };
}
