"use client";

import Link from "next/link";
import { DataTable, type DataTableColumn } from "@/components/ui/data-table";
import type { DisputeRow } from "@/lib/dashboard/dispute-list";
import { formatDateTime } from "@/lib/dashboard/format";
import { formatMoney } from "@/lib/money";
import { DisputeStatusBadge } from "./dispute-status";

const columns: DataTableColumn<DisputeRow>[] = [
  {
    id: "order",
    header: "Payment (order)",
    cell: (row) => (
      <Link href={`/dashboard/disputes/${row.id}`} className="font-medium text-primary underline-offset-4 hover:underline">
        {row.order_id}
      </Link>
    ),
  },
  { id: "amount", header: "Amount", cell: (row) => <span className="tabular-nums">{formatMoney(row.amount, row.currency)}</span> },
  { id: "status", header: "Status", cell: (row) => <DisputeStatusBadge status={row.status} /> },
  { id: "reason", header: "Reason", cell: (row) => row.reason.replaceAll("_", " ") },
  {
    id: "due",
    header: "Evidence due",
    cell: (row) => (row.outcome || row.evidence_submitted ? "—" : formatDateTime(row.evidence_due_by)),
  },
  { id: "created", header: "Opened", cell: (row) => formatDateTime(row.created_at) },
];

export function DisputesTable({ disputes, empty }: { disputes: DisputeRow[]; empty: string }) {
  return <DataTable columns={columns} data={disputes} caption="Disputes" empty={empty} rowKey={(d) => d.id} />;
}
