import Link from "next/link";
import { AlertTriangle, Gavel, ShieldAlert } from "lucide-react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "@/components/ui/table";
import { formatDateTime, formatDay } from "@/lib/dashboard/format";
import type { DisputeNeedingResponse, Overview } from "@/lib/dashboard/get-overview";
import { formatMoney } from "@/lib/money";
import { AmountOwedCard } from "./amount-owed";
import { PaymentsTable } from "./payments-table";
import { VolumeChart } from "./volume-chart";

// The overview's cards (app/(dashboard)/dashboard/page.tsx), one component each.

type Money = (cents: number) => string;
const moneyOf =
  (overview: Overview): Money =>
  (cents) =>
    formatMoney(cents, overview.currency);

/** A live business without a usable Stripe connection: what is off, and who can fix it. */
export function ConnectStripeNotice({ connected, mayConnect }: { connected: boolean; mayConnect: boolean }) {
  return (
    <Card role="alert" className="border-destructive" data-testid="connect-stripe-notice">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <AlertTriangle aria-hidden className="size-5 text-destructive" />
          {connected ? "Finish connecting Stripe" : "Connect Stripe to take card payments"}
        </CardTitle>
        <CardDescription>
          {connected
            ? "Kassa has your key but not the signing secret of its webhook endpoint: card, Apple Pay and Google Pay stay off until it does."
            : "This live business has no Stripe account connected: customers cannot pay by card, Apple Pay or Google Pay, and plans cannot be sold."}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {mayConnect ? (
          <Link
            href="/dashboard/settings#stripe"
            className="text-sm font-medium underline underline-offset-4"
          >
            Connect Stripe in Settings
          </Link>
        ) : (
          <p className="text-sm">Ask an owner of the business to connect Stripe in Settings.</p>
        )}
      </CardContent>
    </Card>
  );
}

/** Balances and the last 30 days' volume and count. */
export function BalanceTiles({ overview }: { overview: Overview }) {
  const money = moneyOf(overview);
  const total = overview.days.reduce((sum, d) => sum + d.volume, 0);
  const count = overview.days.reduce((sum, d) => sum + d.count, 0);
  return (
    <section aria-label="Balances" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <Card>
        <CardHeader>
          <CardDescription>Balance</CardDescription>
          <p className="text-2xl font-semibold tabular-nums" data-testid="balance">
            {money(overview.balance)}
          </p>
        </CardHeader>
      </Card>
      <Card>
        <CardHeader>
          <CardDescription>Payout balance</CardDescription>
          <p className="text-2xl font-semibold tabular-nums" data-testid="payout-balance">
            {money(overview.payoutBalance)}
          </p>
        </CardHeader>
      </Card>
      <AmountOwedCard cents={overview.amountOwed} currency={overview.currency} />
      <Card>
        <CardHeader>
          <CardDescription>Volume, last 30 days</CardDescription>
          <p className="text-2xl font-semibold tabular-nums">{money(total)}</p>
        </CardHeader>
      </Card>
      <Card>
        <CardHeader>
          <CardDescription>Succeeded payments, last 30 days</CardDescription>
          <p className="text-2xl font-semibold tabular-nums">{count}</p>
        </CardHeader>
      </Card>
    </section>
  );
}

/** Succeeded volume and count per day, with the table of the same figures. */
export function VolumeCard({ overview }: { overview: Overview }) {
  const money = moneyOf(overview);
  return (
    <Card>
      <CardHeader>
        <CardTitle id="volume-title">Volume and succeeded payments per day</CardTitle>
        <CardDescription>
          Gross amount of succeeded payments (bars) and their number (line), UTC days.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <VolumeChart days={overview.days} currency={overview.currency} />
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer text-primary">Figures per day</summary>
          <Table>
            <TableCaption className="sr-only">Volume and succeeded payments per day</TableCaption>
            <TableHeader>
              <TableRow>
                <TableHead scope="col">Day</TableHead>
                <TableHead scope="col">Volume</TableHead>
                <TableHead scope="col">Succeeded payments</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {overview.days.map((d) => (
                <TableRow key={d.day}>
                  <TableCell>{formatDay(d.day)}</TableCell>
                  <TableCell className="tabular-nums">{money(d.volume)}</TableCell>
                  <TableCell className="tabular-nums">{d.count}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </details>
      </CardContent>
    </Card>
  );
}

/** Disputes, the review queue and failing deliveries: what needs the merchant. */
export function AttentionCards({ overview }: { overview: Overview }) {
  const money = moneyOf(overview);
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
      <DisputesCard disputes={overview.disputesNeedingResponse} money={money} />
      <ReviewCard overview={overview} />
      <FailingDeliveriesCard overview={overview} />
    </div>
  );
}

function ReviewCard({ overview }: { overview: Overview }) {
  const money = moneyOf(overview);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ShieldAlert aria-hidden className="size-4 text-warning" /> Waiting for review
        </CardTitle>
        <CardDescription>Charged, held by fraud screening: accept or decline each one.</CardDescription>
      </CardHeader>
      <CardContent>
        {overview.waitingForReview.length === 0 ? (
          <p className="text-sm text-muted-foreground">No payment is waiting for review.</p>
        ) : (
          <ul className="divide-y" data-testid="review-queue">
            {overview.waitingForReview.map((p) => (
              <li key={p.session_id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <Link
                  href={`/dashboard/payments/${p.session_id}`}
                  className="font-medium text-primary underline-offset-4 hover:underline"
                >
                  {p.order_id}
                </Link>
                <span className="tabular-nums">{money(p.amount)}</span>
                <span className="text-sm text-muted-foreground">{formatDateTime(p.created_at)}</span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function FailingDeliveriesCard({ overview }: { overview: Overview }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <AlertTriangle aria-hidden className="size-4 text-destructive" /> Failing webhook deliveries
        </CardTitle>
        <CardDescription>
          Events your endpoint did not accept: failed for good, or being retried.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {overview.failingDeliveries.length === 0 ? (
          <p className="text-sm text-muted-foreground" data-testid="deliveries-empty">
            {overview.webhookEndpointSet ? (
              "No delivery is failing."
            ) : (
              <>
                No webhook endpoint set: Kassa sends your server no events.{" "}
                <Link href="/dashboard/webhooks" className="text-primary underline underline-offset-4">
                  Set one on the Webhooks page
                </Link>
              </>
            )}
          </p>
        ) : (
          <ul className="divide-y" data-testid="failing-deliveries">
            {overview.failingDeliveries.map((e) => (
              <li key={e.id} className="grid gap-0.5 py-2 text-sm">
                <span className="flex flex-wrap items-center gap-2">
                  <span className="font-medium">{e.type}</span>
                  <PaymentStatusText status={e.status} />
                  {e.sessionId ? (
                    <Link
                      href={`/dashboard/payments/${e.sessionId}`}
                      className="text-primary underline-offset-4 hover:underline"
                    >
                      {e.orderId ?? e.sessionId}
                    </Link>
                  ) : null}
                </span>
                <span className="text-muted-foreground">
                  {e.attempts} attempt{e.attempts === 1 ? "" : "s"}, last {formatDateTime(e.lastAttemptAt)}
                  {e.lastError ? `: ${e.lastError}` : ""}
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/** The latest payments. */
export function RecentPaymentsCard({ overview }: { overview: Overview }) {
  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between">
        <CardTitle>Recent payments</CardTitle>
        <Link
          href="/dashboard/payments"
          className="text-sm font-medium text-primary underline-offset-4 hover:underline"
        >
          All payments
        </Link>
      </CardHeader>
      <CardContent>
        <PaymentsTable
          payments={overview.recentPayments}
          caption="Recent payments"
          empty="No payments yet. Create a session with the API to see it here."
        />
      </CardContent>
    </Card>
  );
}

/** Disputes waiting for evidence or acceptance, the one due soonest first (as Stripe's home lists them). */
function DisputesCard({ disputes, money }: { disputes: DisputeNeedingResponse[]; money: Money }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Gavel aria-hidden className="size-4 text-destructive" /> Disputes needing a response
        </CardTitle>
        <CardDescription>
          Customers disputed these payments: submit evidence or accept each one before it is due.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {disputes.length === 0 ? (
          <p className="text-sm text-muted-foreground">No dispute is waiting for a response.</p>
        ) : (
          <ul className="divide-y" data-testid="disputes-needing-response">
            {disputes.map((d) => (
              <li key={d.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <Link
                  href={`/dashboard/disputes/${d.id}`}
                  className="font-medium text-primary underline-offset-4 hover:underline"
                >
                  {d.orderId}
                </Link>
                <span className="tabular-nums">{money(d.amount)}</span>
                <span className="text-sm text-muted-foreground">{d.reason.replaceAll("_", " ")}</span>
                <span className="text-sm">
                  {d.evidenceDueBy ? <>Due {formatDateTime(d.evidenceDueBy)}</> : "No due date"}
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function PaymentStatusText({ status }: { status: "pending" | "delivered" | "failed" | "skipped" | "held" }) {
  if (status === "held") return <span className="text-warning">held</span>;
  return status === "failed" ? (
    <span className="text-destructive">failed</span>
  ) : (
    <span className="text-warning">retrying</span>
  );
}
