import { useEffect, useRef } from 'preact/hooks';
import { useUniqueId } from '../components/unique-id';
import { useStore } from '../components/use-store';
import type { FileCounts, FilesView, KnowledgeStore } from '../knowledge-store';
import { messages } from '../i18n/messages';

/** How long typing pauses before the name is searched: one request per word, not per key. */
export const SEARCH_DELAY_MS = 300;

const STATUSES = ['ready', 'processing', 'queued', 'failed'] as const;
const FORMATS = ['pdf', 'docx', 'html', 'markdown', 'text'] as const;
const SORTS = [
  'created_at:desc',
  'created_at:asc',
  'name:asc',
  'name:desc',
  'status:asc',
  'size:desc',
  'size:asc',
] as const;
type SortChoice = (typeof SORTS)[number];

/**
 * Search by name, filter by status and type, sort: what the list asks the service for (one
 * page of it). The status filter says how many files each status has in the whole collection.
 */
export function FilesToolbar({ store }: { store: KnowledgeStore }) {
  useStore(store);
  const m = messages();
  const id = useUniqueId('files-filter');
  const view = store.view;
  const input = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const searched = useRef(view.q);

  // The search emptied from elsewhere (another collection, "Clear search and filters"). The
  // box is otherwise the user's: a controlled value would fight the typing while a list loads.
  // (Effects run late: only a change of the searched words counts, not the first run.)
  useEffect(() => {
    const before = searched.current;
    searched.current = view.q;
    if (view.q !== '' || before === '' || !input.current) return;
    clearTimeout(timer.current);
    input.current.value = '';
  }, [view.q]);
  useEffect(() => () => clearTimeout(timer.current), []);

  function search(q: string, now = false): void {
    clearTimeout(timer.current);
    if (now) void store.setView({ q });
    else timer.current = setTimeout(() => void store.setView({ q }), SEARCH_DELAY_MS);
  }

  const counts: FileCounts | undefined = store.counts;
  const all = counts ? STATUSES.reduce((sum, status) => sum + counts[status], 0) : undefined;
  return (
    <div class="files-toolbar" role="search">
      <div class="files-search">
        <label for={`${id}-q`}>{m.files.search}</label>
        <input
          id={`${id}-q`}
          type="search"
          ref={input}
          defaultValue={view.q}
          placeholder={m.files.searchPlaceholder}
          autocomplete="off"
          maxLength={200}
          onInput={(event) => search(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') search(event.currentTarget.value, true);
          }}
        />
      </div>
      <div class="files-filter">
        <label for={`${id}-status`}>{m.files.statusFilter}</label>
        <select
          id={`${id}-status`}
          value={view.status ?? ''}
          onChange={(event) =>
            void store.setView({
              status: (event.currentTarget.value || undefined) as FilesView['status'],
            })
          }
        >
          <option value="">
            {all === undefined ? m.files.anyStatus : m.files.allStatuses(all)}
          </option>
          {STATUSES.map((status) => (
            <option key={status} value={status}>
              {m.files.statusOption(status, counts?.[status] ?? 0)}
            </option>
          ))}
        </select>
      </div>
      <div class="files-filter">
        <label for={`${id}-format`}>{m.files.typeFilter}</label>
        <select
          id={`${id}-format`}
          value={view.format ?? ''}
          onChange={(event) =>
            void store.setView({
              format: (event.currentTarget.value || undefined) as FilesView['format'],
            })
          }
        >
          <option value="">{m.files.allTypes}</option>
          {FORMATS.map((format) => (
            <option key={format} value={format}>
              {m.files.format(format)}
            </option>
          ))}
        </select>
      </div>
      <div class="files-filter">
        <label for={`${id}-sort`}>{m.files.sort}</label>
        <select
          id={`${id}-sort`}
          value={`${view.sort}:${view.order}`}
          onChange={(event) => {
            const [sort, order] = event.currentTarget.value.split(':') as [
              FilesView['sort'],
              FilesView['order'],
            ];
            void store.setView({ sort, order });
          }}
        >
          {SORTS.map((choice: SortChoice) => (
            <option key={choice} value={choice}>
              {m.files.sortOption(choice)}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

/** Whether the view searches or filters (rather than listing the whole collection). */
export const isNarrowed = (view: FilesView) =>
  view.q.trim() !== '' || view.status !== undefined || view.format !== undefined;
