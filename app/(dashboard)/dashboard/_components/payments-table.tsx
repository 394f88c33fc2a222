"use client";

import Link from "next/link";
import { DataTable, type DataTableColumn } from "@/components/ui/data-table";
import { formatDateTime } from "@/lib/dashboard/format";
import { formatMoney } from "@/lib/money";
import type { ListedPayment } from "@/lib/dashboard/list-payments";
import { PaymentDisputeBadge, PaymentStatus } from "./payment-status";

const columns: DataTableColumn<ListedPayment>[] = [
  {
    id: "order",
    header: "Order",
    cell: (row) => (
      <Link href={`/dashboard/payments/${row.session_id}`} className="font-medium text-primary underline-offset-4 hover:underline">
        {row.order_id}
      </Link>
    ),
  },
  {
    id: "amount",
    header: "Amount",
    cell: (row) => <span className="tabular-nums">{formatMoney(row.amount, row.currency)}</span>,
  },
  {
    id: "status",
    header: "Status",
    cell: (row) => (
      <span className="flex flex-wrap items-center gap-1">
        <PaymentStatus status={row.status} amount={row.amount} refunded={row.refunded_amount} />
        <PaymentDisputeBadge dispute={row.dispute} />
      </span>
    ),
  },
  {
    id: "customer",
    header: "Customer",
    cell: (row) => (
      <span className="block max-w-[16rem] truncate">{row.customer_details?.email ?? row.customer}</span>
    ),
  },
  { id: "method", header: "Method", cell: (row) => row.payment_method ?? "—" },
  { id: "created", header: "Created", cell: (row) => formatDateTime(row.created_at) },
];

export function PaymentsTable({ payments, caption, empty }: { payments: ListedPayment[]; caption: string; empty: string }) {
  return <DataTable columns={columns} data={payments} caption={caption} empty={empty} rowKey={(p) => p.session_id} />;
}
