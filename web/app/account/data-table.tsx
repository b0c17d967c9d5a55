import type { ReactNode } from 'react';

/*
 * A table on wide screens that becomes a stack of cards on phones (app.css, "Account pages").
 * The roles are spelled out: CSS that changes a table's display can drop its table semantics in
 * some browsers, and each cell carries its column's name for the card layout, hidden from
 * assistive technology (which reads the column header instead).
 */

export interface Column {
  id: string;
  label: string;
}

export interface Row {
  key: string;
  cells: ReactNode[];
}

export function DataTable({
  caption,
  columns,
  rows,
}: {
  caption: string;
  columns: Column[];
  rows: Row[];
}) {
  return (
    <table className="data-table" role="table">
      <caption className="visually-hidden">{caption}</caption>
      <thead role="rowgroup">
        <tr role="row">
          {columns.map((column) => (
            <th key={column.id} role="columnheader" scope="col">
              {column.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody role="rowgroup">
        {rows.map((row) => (
          <tr key={row.key} role="row">
            {row.cells.map((cell, index) => {
              const column = columns[index];
              return (
                <td
                  key={column?.id ?? index}
                  role="cell"
                  className={column ? `data-table__${column.id}` : undefined}
                >
                  {column ? (
                    <span className="data-table__label" aria-hidden="true">
                      {column.label}
                    </span>
                  ) : null}
                  <span className="data-table__value">{cell}</span>
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
