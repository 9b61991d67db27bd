import { messages } from '../i18n/messages';

export interface PagerProps {
  /** What is paged through ("Pages of users"): the navigation landmark's name. */
  label: string;
  page: number;
  pages: number;
  onPage(page: number): void;
}

/** Previous, "Page 2 of 5", Next under a long list; nothing when it fits one page. */
export function Pager({ label, page, pages, onPage }: PagerProps) {
  if (pages <= 1) return null;
  const m = messages();
  return (
    <nav class="pager" aria-label={label}>
      <button
        type="button"
        class="button small"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        {m.pager.previous}
      </button>
      <span>{m.pager.pageOf(page, pages)}</span>
      <button
        type="button"
        class="button small"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      >
        {m.pager.next}
      </button>
    </nav>
  );
}
