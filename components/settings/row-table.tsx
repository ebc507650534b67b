import type { ReactNode } from "react";

/**
 * A settings list as a table, or the sentence saying it is empty: `columns` are the headers,
 * `actions` adds the last, unnamed column for the rows' buttons, and `children` are the rows
 * (`<tr>`s). When `rows` is 0, only `empty` shows, in a paragraph with `emptyTestId`.
 */
export function RowTable({
  columns,
  actions = true,
  rows,
  empty,
  emptyTestId,
  emptyClassName = "muted",
  children,
}: {
  columns: string[];
  actions?: boolean;
  /** How many rows `children` holds. */
  rows: number;
  empty: ReactNode;
  emptyTestId: string;
  emptyClassName?: string;
  children: ReactNode;
}) {
  if (rows === 0) {
    return (
      <p className={emptyClassName} data-testid={emptyTestId}>
        {empty}
      </p>
    );
  }
  return (
    <table className="threads">
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c}>{c}</th>
          ))}
          {actions ? <th aria-label="Actions" /> : null}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
