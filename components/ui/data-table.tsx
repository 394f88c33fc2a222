"use client";

import { tableFeatures, useTable, type ColumnDef, type RowData } from "@tanstack/react-table";
import type { ReactNode } from "react";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "./table";

const features = tableFeatures({});

export type DataTableColumn<T extends RowData> = ColumnDef<typeof features, T>;

/**
 * A TanStack Table (v9) rendered with the table primitives. Rows arrive already paginated and
 * filtered by the server; the table only lays them out.
 */
export function DataTable<T extends RowData>({
  columns,
  data,
  caption,
  empty,
  rowId,
}: {
  columns: DataTableColumn<T>[];
  data: T[];
  /** Read by screen readers (the table's name); shown visually hidden. */
  caption: string;
  empty: ReactNode;
  rowId?: (row: T) => string;
}) {
  const table = useTable({
    features,
    columns,
    data,
    getRowId: rowId ? (row: T) => rowId(row) : undefined,
  });
  return (
    <Table>
      <TableCaption className="sr-only">{caption}</TableCaption>
      <TableHeader>
        {table.getHeaderGroups().map((group) => (
          <TableRow key={group.id} className="hover:bg-transparent">
            {group.headers.map((header) => (
              <TableHead key={header.id} scope="col">
                {header.isPlaceholder ? null : <table.FlexRender header={header} />}
              </TableHead>
            ))}
          </TableRow>
        ))}
      </TableHeader>
      <TableBody>
        {table.getRowModel().rows.length === 0 ? (
          <TableRow className="hover:bg-transparent">
            <TableCell colSpan={columns.length} className="h-24 whitespace-normal text-center text-muted-foreground">
              {empty}
            </TableCell>
          </TableRow>
        ) : (
          table.getRowModel().rows.map((row) => (
            <TableRow key={row.id}>
              {row.getAllCells().map((cell) => (
                <TableCell key={cell.id} label={typeof cell.column.columnDef.header === "string" ? cell.column.columnDef.header : undefined}>
                  <table.FlexRender cell={cell} />
                </TableCell>
              ))}
            </TableRow>
          ))
        )}
      </TableBody>
    </Table>
  );
}
