import Link from "next/link";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { DataTable, type DataTableColumn } from "@/components/ui/data-table";
import { formatDateTime } from "@/lib/dashboard/format";
import { pendingWithdrawalsShown, type PayoutsDashboard, type PendingWithdrawal } from "@/lib/dashboard/payouts";
import { formatMoney } from "@/lib/money";
import { WithdrawalActions } from "./payout-controls";

function columns(businessId: string): DataTableColumn<PendingWithdrawal>[] {
  return [
    { id: "asked", header: "Asked", cell: (w) => formatDateTime(w.created_at) },
    {
      id: "user",
      header: "Payout user",
      cell: (w) => (
        <Link href={`/dashboard/payouts/users/${w.payout_user_id}`} className="text-primary underline-offset-4 hover:underline">
          {w.email}
        </Link>
      ),
    },
    { id: "amount", header: "Amount", className: "tabular-nums", cell: (w) => formatMoney(w.amount, w.currency) },
    { id: "destination", header: "Destination", className: "max-w-[16rem] truncate", title: (w) => w.destination, cell: (w) => w.destination },
    { id: "reference", header: "Reference", cell: (w) => w.reference ?? "—" },
    { id: "actions", header: "Actions", srOnlyHeader: true, cell: (w) => <WithdrawalActions businessId={businessId} withdrawal={w} email={w.email} /> },
  ];
}

/** The withdrawals payout users asked for, oldest first: pay each, then approve it, or reject it. */
export function PendingWithdrawalsCard({ view, businessId }: { view: PayoutsDashboard; businessId: string }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Withdrawals waiting for you</CardTitle>
        <CardDescription>
          Pay each one to its destination, then approve it; or reject it to return the funds to the user.
          {view.pendingCount > pendingWithdrawalsShown ? ` The ${pendingWithdrawalsShown} oldest of ${view.pendingCount} are shown.` : ""}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {view.pendingWithdrawals.length === 0 ? (
          <p className="text-sm text-muted-foreground">No withdrawal is waiting.</p>
        ) : (
          <DataTable
            data-testid="pending-withdrawals"
            caption="Withdrawals waiting for approval, oldest first"
            columns={columns(businessId)}
            data={view.pendingWithdrawals}
            rowKey={(w) => w.id}
          />
        )}
      </CardContent>
    </Card>
  );
}
