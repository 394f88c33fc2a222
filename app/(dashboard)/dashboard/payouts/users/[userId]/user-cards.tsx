import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { DataTable, type DataTableColumn } from "@/components/ui/data-table";
import { Pagination } from "@/components/ui/pagination";
import { formatDateTime } from "@/lib/dashboard/format";
import type { PayoutUserDetail } from "@/lib/dashboard/payouts";
import { formatMoney } from "@/lib/money";
import { WithdrawalActions, WithdrawalStatus } from "../../_components/payout-controls";

type Withdrawal = PayoutUserDetail["withdrawals"]["data"][number];
type HistoryEntry = PayoutUserDetail["history"]["data"][number];
type Pages = { previousHref: string | null; nextHref: string | null };

const historyLabels = { allocation: "Allocated", withdrawal: "Withdrawal asked", withdrawal_returned: "Withdrawal returned" } as const;

const details = (w: Withdrawal) =>
  [
    w.reference ? `ref. ${w.reference}` : null,
    w.settlement_reference ? `paid: ${w.settlement_reference}` : null,
    w.status_reason,
    w.resolved_at ? `${w.resolved_by ?? ""} ${formatDateTime(w.resolved_at)}`.trim() : null,
  ]
    .filter(Boolean)
    .join(" · ") || "—";

function withdrawalColumns(businessId: string, user: PayoutUserDetail["user"]): DataTableColumn<Withdrawal>[] {
  return [
    { id: "asked", header: "Asked", cell: (w) => formatDateTime(w.created_at) },
    { id: "amount", header: "Amount", className: "tabular-nums", cell: (w) => formatMoney(w.amount, user.currency) },
    { id: "status", header: "Status", cell: (w) => <WithdrawalStatus status={w.status} /> },
    { id: "destination", header: "Destination", className: "max-w-[16rem] truncate", title: (w) => w.destination, cell: (w) => w.destination },
    { id: "details", header: "Details", className: "text-muted-foreground", cell: details },
    {
      id: "actions",
      header: "Actions",
      srOnlyHeader: true,
      cell: (w) => (w.status === "pending" ? <WithdrawalActions businessId={businessId} withdrawal={w} email={user.email} /> : null),
    },
  ];
}

function historyColumns(currency: string): DataTableColumn<HistoryEntry>[] {
  const money = (cents: number) => formatMoney(cents, currency);
  return [
    { id: "when", header: "When", cell: (e) => formatDateTime(e.created_at) },
    { id: "what", header: "What", cell: (e) => historyLabels[e.type] },
    {
      id: "change",
      header: "Change",
      className: (e) => (e.amount < 0 ? "tabular-nums text-destructive" : "tabular-nums text-success"),
      cell: (e) => (
        <>
          {e.amount > 0 ? "+" : "−"}
          {money(Math.abs(e.amount))}
        </>
      ),
    },
    { id: "after", header: "Balance after", className: "tabular-nums", cell: (e) => money(e.balance_after) },
  ];
}

export function WithdrawalsCard({ detail, businessId, pages }: { detail: PayoutUserDetail; businessId: string; pages: Pages }) {
  const { withdrawals, user } = detail;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Withdrawals</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        {withdrawals.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">No withdrawals yet.</p>
        ) : (
          <DataTable tabIndex={0} caption="Withdrawals, newest first" columns={withdrawalColumns(businessId, user)} data={withdrawals.data} rowKey={(w) => w.id} />
        )}
        <Pagination label="Withdrawals pages" previousHref={pages.previousHref} nextHref={pages.nextHref} />
      </CardContent>
    </Card>
  );
}

export function HistoryCard({ detail, pages }: { detail: PayoutUserDetail; pages: Pages }) {
  const { history, user } = detail;
  return (
    <Card>
      <CardHeader>
        <CardTitle>History</CardTitle>
        <CardDescription>Every change of the balance, newest first.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {history.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">No history yet.</p>
        ) : (
          <DataTable tabIndex={0} caption="Balance history, newest first" columns={historyColumns(user.currency)} data={history.data} rowKey={(e) => e.id} />
        )}
        <Pagination label="History pages" previousHref={pages.previousHref} nextHref={pages.nextHref} />
      </CardContent>
    </Card>
  );
}

export function UserBalances({ user }: { user: PayoutUserDetail["user"] }) {
  return (
    <section aria-label="Balances" className="grid gap-4 sm:grid-cols-2">
      <Card>
        <CardHeader>
          <CardDescription>Balance (can be withdrawn)</CardDescription>
          <p className="text-2xl font-semibold tabular-nums" data-testid="user-balance">
            {formatMoney(user.balance, user.currency)}
          </p>
        </CardHeader>
      </Card>
      <Card>
        <CardHeader>
          <CardDescription>Held by pending withdrawals</CardDescription>
          <p className="text-2xl font-semibold tabular-nums">{formatMoney(user.held_balance, user.currency)}</p>
        </CardHeader>
      </Card>
    </section>
  );
}
