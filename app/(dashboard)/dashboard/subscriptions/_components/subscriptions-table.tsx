"use client";

import Link from "next/link";
import { DataTable, type DataTableColumn } from "@/components/ui/data-table";
import { formatDateTime } from "@/lib/dashboard/format";
import { formatMoney } from "@/lib/money";
import type { SubscriptionView } from "@/lib/subscriptions/subscription-view";
import { SubscriptionStatus } from "./subscription-status";

const columns: DataTableColumn<SubscriptionView>[] = [
  {
    id: "order",
    header: "Plan (order)",
    cell: (row) => (
      <Link href={`/dashboard/subscriptions/${row.id}`} className="font-medium text-primary underline-offset-4 hover:underline">
        {row.order_id}
      </Link>
    ),
  },
  {
    id: "price",
    header: "Price",
    cell: (row) => (
      <span className="tabular-nums">
        {formatMoney(row.amount, row.currency)} {row.interval_label}
      </span>
    ),
  },
  { id: "status", header: "Status", cell: (row) => <SubscriptionStatus subscription={row} /> },
  {
    id: "customer",
    header: "Customer",
    cell: (row) => <span className="block max-w-[16rem] truncate">{row.customer_email ?? row.customer ?? "—"}</span>,
  },
  { id: "cycles", header: "Cycles", cell: (row) => <span className="tabular-nums">{row.cycles_count}</span> },
  {
    id: "period",
    header: "Current period ends",
    cell: (row) => (row.status === "canceled" ? "—" : formatDateTime(row.current_period_end)),
  },
  { id: "created", header: "Created", cell: (row) => formatDateTime(row.created_at) },
];

export function SubscriptionsTable({ subscriptions, empty }: { subscriptions: SubscriptionView[]; empty: string }) {
  return <DataTable columns={columns} data={subscriptions} caption="Subscriptions" empty={empty} rowKey={(s) => s.id} />;
}
