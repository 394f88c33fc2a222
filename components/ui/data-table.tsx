import type { ComponentProps, Key, ReactNode } from "react";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "./table";

export type DataTableColumn<T> = {
  id: string;
  /** The column's name: its header, and the label beside the value when a row is a card (phones). */
  header: string;
  /** Name the column for screen readers only (an actions column); its cells carry no label. */
  srOnlyHeader?: boolean;
  cell: (row: T) => ReactNode;
  className?: string | ((row: T) => string);
  /** The cell's tooltip (a value the cell truncates). */
  title?: (row: T) => string | undefined;
  testId?: string;
};

/**
 * Every list of the dashboard and the support console: a real table named by its caption (visually
 * hidden), column headers scoped to their columns, and on a phone each row shown as a card whose
 * cells carry their column's name (unless `cards` is false: then the table scrolls sideways).
 * Rows arrive already filtered and paginated by the server; the table only lays them out. It holds
 * no state, so server pages and client components render it alike.
 */
export function DataTable<T>({
  columns,
  data,
  caption,
  rowKey,
  empty,
  cards = true,
  showCaption = false,
  rowProps,
  ...props
}: {
  columns: DataTableColumn<T>[];
  data: T[];
  caption: string;
  rowKey: (row: T) => Key;
  /** Shown in a row of its own when there are no rows; without it the table has an empty body. */
  empty?: ReactNode;
  cards?: boolean;
  /** Show the caption under the table (a note on its rows) instead of for screen readers only. */
  showCaption?: boolean;
  rowProps?: (row: T) => ComponentProps<"tr"> & { "data-testid"?: string };
} & Omit<ComponentProps<typeof Table>, "children">) {
  return (
    <Table {...props}>
      <TableCaption className={showCaption ? undefined : "sr-only"}>{caption}</TableCaption>
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          {columns.map((c) => (
            <TableHead key={c.id} scope="col">
              {c.srOnlyHeader ? <span className="sr-only">{c.header}</span> : c.header}
            </TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {data.length === 0 && empty !== undefined ? (
          <TableRow className="hover:bg-transparent">
            <TableCell colSpan={columns.length} className="h-24 whitespace-normal text-center text-muted-foreground">
              {empty}
            </TableCell>
          </TableRow>
        ) : (
          data.map((row) => (
            <TableRow key={rowKey(row)} {...rowProps?.(row)}>
              {columns.map((c) => (
                <TableCell key={c.id} label={cards ? (c.srOnlyHeader ? "" : c.header) : undefined} className={typeof c.className === "function" ? c.className(row) : c.className} title={c.title?.(row)} data-testid={c.testId}>
                  {c.cell(row)}
                </TableCell>
              ))}
            </TableRow>
          ))
        )}
      </TableBody>
    </Table>
  );
}
