import { fireEvent, render, screen, within } from '@testing-library/preact';
import { useState } from 'preact/hooks';
import { beforeEach, describe, expect, it } from 'vitest';
import { setLocale } from '../i18n/locale';
import { DataTable, type Column } from './data-table';
import { Pager } from './pager';

interface Person {
  id: string;
  name: string;
  role: string;
}

const PEOPLE: Person[] = [
  { id: '1', name: 'ada', role: 'Owner' },
  { id: '2', name: 'bo', role: 'Viewer' },
];

const COLUMNS: Column<Person>[] = [
  { header: 'User', rowHeader: true, cell: (p) => p.name },
  { header: 'Role', cell: (p) => p.role },
  { header: 'Actions', actions: true, cell: (p) => <button type="button">Remove {p.name}</button> },
];

describe('a data table', () => {
  it('has a caption, column headings, and a row heading that names each row', () => {
    render(
      <DataTable
        class="users"
        caption="2 people"
        columns={COLUMNS}
        rows={PEOPLE}
        rowKey={(p) => p.id}
        rowProps={(p) => ({ 'data-username': p.name })}
      />,
    );
    const table = screen.getByRole('table', { name: '2 people' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['User', 'Role', 'Actions']);
    const row = screen.getByRole('row', { name: /bo/ });
    expect(row.getAttribute('data-username')).toBe('bo');
    expect(within(row).getByRole('rowheader').textContent).toBe('bo');
    expect(within(row).getByRole('cell', { name: 'Viewer' }).getAttribute('data-label')).toBe(
      'Role',
    );
    // The actions column is named for screen readers only, and its cells carry no label.
    expect(table.querySelector('thead th:last-child .visually-hidden')?.textContent).toBe(
      'Actions',
    );
    expect(within(row).getByRole('button').closest('td')?.hasAttribute('data-label')).toBe(false);
  });

  it('keeps a row, and the focus in it, when rows before it go', () => {
    function Shrinking() {
      const [rows, setRows] = useState(PEOPLE);
      return (
        <>
          <button type="button" onClick={() => setRows(rows.slice(1))}>
            Drop first
          </button>
          <DataTable
            class="users"
            caption="people"
            columns={COLUMNS}
            rows={rows}
            rowKey={(p) => p.id}
          />
        </>
      );
    }
    render(<Shrinking />);
    const remove = screen.getByRole('button', { name: 'Remove bo' });
    remove.focus();
    // A click that does not take the focus, as when the list changes on its own.
    fireEvent.click(screen.getByRole('button', { name: 'Drop first' }));
    expect(screen.queryByRole('row', { name: /ada/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Remove bo' })).toBe(remove);
    expect(document.activeElement).toBe(remove);
  });
});

describe('a pager', () => {
  beforeEach(() => setLocale('en'));

  function Paged({ pages }: { pages: number }) {
    const [page, setPage] = useState(1);
    return <Pager label="Pages of people" page={page} pages={pages} onPage={setPage} />;
  }

  it('is not there when the list fits one page', () => {
    render(<Paged pages={1} />);
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('moves between pages, and cannot go past either end', () => {
    render(<Paged pages={2} />);
    const nav = screen.getByRole('navigation', { name: 'Pages of people' });
    const previous = within(nav).getByRole('button', { name: 'Previous' }) as HTMLButtonElement;
    const next = within(nav).getByRole('button', { name: 'Next' }) as HTMLButtonElement;
    expect(nav.textContent).toContain('Page 1 of 2');
    expect(previous.disabled).toBe(true);
    fireEvent.click(next);
    expect(nav.textContent).toContain('Page 2 of 2');
    expect(next.disabled).toBe(true);
    expect(previous.disabled).toBe(false);
    setLocale('zh');
    fireEvent.click(previous);
    expect(nav.textContent).toContain('第 1 页，共 2 页');
  });
});
