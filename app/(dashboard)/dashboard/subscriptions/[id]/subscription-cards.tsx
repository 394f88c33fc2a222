import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { DataTable, type DataTableColumn } from "@/components/ui/data-table";
import { DetailItem } from "@/components/ui/detail-list";
import { formatDateTime, paymentStatusLabel } from "@/lib/dashboard/format";
import type { SubscriptionDetail } from "@/lib/dashboard/get-subscription-detail";
import { actorLabel } from "@/lib/dashboard/subscription-format";
import { formatMoney } from "@/lib/money";

const mono = "font-mono text-xs";

type Cycle = SubscriptionDetail["cycles"][number];

/** Every field of the interface's Subscription. */
export function SubscriptionDetails({ subscription: s }: { subscription: SubscriptionDetail["subscription"] }) {
  const money = (cents: number) => formatMoney(cents, s.currency);
  return (
  <Card>
    <CardHeader>
      <CardTitle>Details</CardTitle>
    </CardHeader>
    <CardContent>
      <dl className="grid gap-3">
        <DetailItem label="Status (status)">{s.status}</DetailItem>
        <DetailItem label="Price per period (amount)">{money(s.amount)}</DetailItem>
        <DetailItem label="Charged per renewal (unit_amount)">{money(s.unit_amount)}</DetailItem>
        <DetailItem label="Currency">{s.currency}</DetailItem>
        <DetailItem label="Interval">
          {s.interval_label} ({s.interval} × {s.interval_count})
        </DetailItem>
        <DetailItem label="Customer">{s.customer ?? "—"}</DetailItem>
        <DetailItem label="Customer e-mail">{s.customer_email ?? "—"}</DetailItem>
        <DetailItem label="Order id">{s.order_id}</DetailItem>
        <DetailItem label="Payment method">{s.payment_method}</DetailItem>
        <DetailItem label="Provider">{s.provider}</DetailItem>
        <DetailItem label="Provider subscription">{s.provider_subscription_id ? <span className={mono}>{s.provider_subscription_id}</span> : "Not created yet"}</DetailItem>
        <DetailItem label="Cycles">{s.cycles_count}</DetailItem>
        <DetailItem label="Current period ends">{formatDateTime(s.current_period_end)}</DetailItem>
        <DetailItem label="Cancel at period end">{s.cancel_at_period_end ? "Yes" : "No"}</DetailItem>
        <DetailItem label="Cancellation requested by">{actorLabel(s.cancel_requested_by)}</DetailItem>
        <DetailItem label="Canceled at">{formatDateTime(s.canceled_at)}</DetailItem>
        <DetailItem label="Canceled by">{actorLabel(s.canceled_by)}</DetailItem>
        <DetailItem label="Cancellation reason">{s.cancellation_reason ?? "—"}</DetailItem>
        <DetailItem label="Signup payment">
          <Link href={`/dashboard/payments/${s.initial_session_id}`} className={`${mono} text-primary underline-offset-4 hover:underline`}>
            {s.initial_session_id}
          </Link>
        </DetailItem>
        <DetailItem label="Management page">
          {s.management_url ? (
            <a href={s.management_url} className="break-all text-primary underline-offset-4 hover:underline" rel="noreferrer" target="_blank">
              {s.management_url}
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          ) : (
            "—"
          )}
        </DetailItem>
        <DetailItem label="Created">{formatDateTime(s.created_at)}</DetailItem>
        <DetailItem label="Items">
          {s.items.length ? (
            <ul className="grid gap-1">
              {s.items.map((item, i) => (
                <li key={i}>
                  {item.quantity} × {item.name} at {money(item.price)}
                </li>
              ))}
            </ul>
          ) : (
            "—"
          )}
        </DetailItem>
        <DetailItem label="Metadata">
          {Object.keys(s.metadata ?? {}).length ? <pre className={`${mono} whitespace-pre-wrap`}>{JSON.stringify(s.metadata, null, 2)}</pre> : "—"}
        </DetailItem>
      </dl>
    </CardContent>
  </Card>
  );
}

function cycleColumns(currency: string): DataTableColumn<Cycle>[] {
  const money = (cents: number) => formatMoney(cents, currency);
  return [
    {
      id: "cycle",
      header: "Cycle",
      cell: (c) => (
        <>
          {c.cycle} <span className="text-muted-foreground">({c.kind})</span>
        </>
      ),
    },
    {
      id: "payment",
      header: "Payment",
      cell: (c) =>
        c.session_id ? (
          <Link href={`/dashboard/payments/${c.session_id}`} className="text-primary underline-offset-4 hover:underline">
            {c.order_id ?? c.session_id}
          </Link>
        ) : (
          <span className="text-muted-foreground">No payment yet</span>
        ),
    },
    {
      id: "amount",
      header: "Amount",
      className: "tabular-nums",
      cell: (c) => (
        <>
          {c.payment ? money(c.payment.amount) : "—"}
          {c.payment && c.payment.refunded_amount > 0 && <span className="text-muted-foreground"> ({money(c.payment.refunded_amount)} refunded)</span>}
        </>
      ),
    },
    {
      id: "status",
      header: "Status",
      cell: (c) => {
        const status = c.payment ? paymentStatusLabel(c.payment.status) : null;
        return status ? <Badge variant={status.tone}>{status.label}</Badge> : "—";
      },
    },
    { id: "invoice", header: "Invoice", cell: (c) => c.invoice_status },
    { id: "period", header: "Period ends", cell: (c) => formatDateTime(c.period_end) },
    { id: "created", header: "Created", cell: (c) => formatDateTime(c.created_at) },
  ];
}

/** The signup payment and each renewal, newest first. */
export function CyclesCard({ detail }: { detail: SubscriptionDetail }) {
  const subscription = detail.subscription;
  return (
  <Card>
    <CardHeader>
      <CardTitle>Cycles and renewals</CardTitle>
      <CardDescription>The signup payment is cycle 1; each renewal the provider invoiced follows, newest first.</CardDescription>
    </CardHeader>
    <CardContent>
      <DataTable caption="Cycles of this subscription" cards={false} columns={cycleColumns(subscription.currency)} data={detail.cycles} rowKey={(c) => c.cycle} />
    </CardContent>
  </Card>
  );
}
