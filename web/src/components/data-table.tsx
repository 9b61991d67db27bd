import type { ComponentChildren } from 'preact';

export interface Column<Row> {
  /** The column's heading, and each cell's label where rows are laid out as cards (phones). */
  header: string;
  /** A column of buttons: its heading is for screen readers only, its cells are unlabelled. */
  actions?: boolean;
  /** The cell that names the row (`<th scope="row">`): the first column, usually. */
  rowHeader?: boolean;
  cell(row: Row): ComponentChildren;
}

export interface DataTableProps<Row> {
  /** `users`, plus what the table lists (`members`). */
  class: string;
  /** What the table holds and how many ("3 users"). */
  caption: ComponentChildren;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey(row: Row): string;
  /** Attributes of a row's `<tr>` (a class, the `data-` name it is found by). */
  rowProps?(row: Row): { class?: string; [data: `data-${string}`]: string | undefined };
}

/**
 * A table of records with a caption and column headings, one row each, in a box that scrolls
 * sideways when the screen is narrower than the table. Rows are keyed, so a row keeps its
 * nodes (and the focus within it) when the rows change.
 */
export function DataTable<Row>(props: DataTableProps<Row>) {
  return (
    <div class="table-wrap">
      <table class={props.class}>
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th key={column.header} scope="col">
                {column.actions ? (
                  <span class="visually-hidden">{column.header}</span>
                ) : (
                  column.header
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={props.rowKey(row)} {...props.rowProps?.(row)}>
              {props.columns.map((column) => {
                if (column.rowHeader) {
                  return (
                    <th key={column.header} scope="row" data-label={column.header}>
                      {column.cell(row)}
                    </th>
                  );
                }
                return column.actions ? (
                  <td key={column.header} class="actions">
                    {column.cell(row)}
                  </td>
                ) : (
                  <td key={column.header} data-label={column.header}>
                    {column.cell(row)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
