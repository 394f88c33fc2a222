import { ChevronLeft } from "lucide-react";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatDateTime, paymentStatusLabel } from "@/lib/dashboard/format";
import { getSubscriptionDetail } from "@/lib/dashboard/get-subscription-detail";
import { actorLabel, resumeBlockedReason } from "@/lib/dashboard/subscription-format";
import { getDb } from "@/lib/db";
import { SubscriptionNotFoundError } from "@/lib/errors";
import { formatMoney } from "@/lib/money";
import { requireStaffFor, staffMay } from "@/lib/staff/current-staff";
import { SubscriptionStatus } from "../_components/subscription-status";
import { SubscriptionActions } from "./subscription-actions";

export const metadata = { title: "Subscription" };

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-0.5 sm:grid-cols-[12rem_1fr] sm:gap-3">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words text-sm">{children}</dd>
    </div>
  );
}

const mono = "font-mono text-xs";

// GET /dashboard/subscriptions/{id}: every field of the interface's Subscription, its cycles, cancel and resume.
export default async function SubscriptionPage({ params }: { params: Promise<{ id: string }> }) {
  const staff = await requireStaffFor("read");
  const { id } = await params;
  let detail;
  try {
    detail = await getSubscriptionDetail(await getDb(), staff.businessId, id);
  } catch (error) {
    if (error instanceof SubscriptionNotFoundError) notFound();
    throw error;
  }
  const s = detail.subscription;
  const money = (cents: number) => formatMoney(cents, s.currency);
  const mayChange = staffMay(staff, "subscriptions");

  return (
    <div className="grid gap-6">
      <div className="grid gap-2">
        <Link href="/dashboard/subscriptions" className="inline-flex w-fit items-center gap-1 text-sm text-primary underline-offset-4 hover:underline">
          <ChevronLeft aria-hidden className="size-4" /> Subscriptions
        </Link>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold tracking-tight">
            {money(s.amount)} {s.interval_label}
          </h1>
          <SubscriptionStatus subscription={s} />
        </div>
        <p className={`${mono} text-muted-foreground`}>{s.id}</p>
      </div>

      {mayChange && (
        <Card>
          <CardHeader>
            <CardTitle>Cancel or resume</CardTitle>
            <CardDescription>
              Recorded as <code>{staff.role === "admin" ? "admin" : "manager"}</code> in &ldquo;Canceled by&rdquo; (or &ldquo;Cancellation requested by&rdquo;
              for a cancellation at the period&apos;s end).
            </CardDescription>
          </CardHeader>
          <CardContent>
            <SubscriptionActions
              businessId={staff.businessId}
              subscriptionId={s.id}
              canceled={s.status === "canceled"}
              scheduled={s.cancel_at_period_end}
              resumeHint={resumeBlockedReason(s, staff.role === "admin")}
              periodEnd={formatDateTime(s.current_period_end)}
            />
          </CardContent>
        </Card>
      )}

      <Card>
        <CardHeader>
          <CardTitle>Details</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-3">
            <Field label="Status (status)">{s.status}</Field>
            <Field label="Price per period (amount)">{money(s.amount)}</Field>
            <Field label="Charged per renewal (unit_amount)">{money(s.unit_amount)}</Field>
            <Field label="Currency">{s.currency}</Field>
            <Field label="Interval">
              {s.interval_label} ({s.interval} × {s.interval_count})
            </Field>
            <Field label="Customer">{s.customer ?? "—"}</Field>
            <Field label="Customer e-mail">{s.customer_email ?? "—"}</Field>
            <Field label="Order id">{s.order_id}</Field>
            <Field label="Payment method">{s.payment_method}</Field>
            <Field label="Provider">{s.provider}</Field>
            <Field label="Provider subscription">{s.provider_subscription_id ? <span className={mono}>{s.provider_subscription_id}</span> : "Not created yet"}</Field>
            <Field label="Cycles">{s.cycles_count}</Field>
            <Field label="Current period ends">{formatDateTime(s.current_period_end)}</Field>
            <Field label="Cancel at period end">{s.cancel_at_period_end ? "Yes" : "No"}</Field>
            <Field label="Cancellation requested by">{actorLabel(s.cancel_requested_by)}</Field>
            <Field label="Canceled at">{formatDateTime(s.canceled_at)}</Field>
            <Field label="Canceled by">{actorLabel(s.canceled_by)}</Field>
            <Field label="Cancellation reason">{s.cancellation_reason ?? "—"}</Field>
            <Field label="Signup payment">
              <Link href={`/dashboard/payments/${s.initial_session_id}`} className={`${mono} text-primary underline-offset-4 hover:underline`}>
                {s.initial_session_id}
              </Link>
            </Field>
            <Field label="Management page">
              {s.management_url ? (
                <a href={s.management_url} className="break-all text-primary underline-offset-4 hover:underline" rel="noreferrer" target="_blank">
                  {s.management_url}
                  <span className="sr-only"> (opens in a new tab)</span>
                </a>
              ) : (
                "—"
              )}
            </Field>
            <Field label="Created">{formatDateTime(s.created_at)}</Field>
            <Field label="Items">
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
            </Field>
            <Field label="Metadata">
              {Object.keys(s.metadata ?? {}).length ? <pre className={`${mono} whitespace-pre-wrap`}>{JSON.stringify(s.metadata, null, 2)}</pre> : "—"}
            </Field>
          </dl>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Cycles and renewals</CardTitle>
          <CardDescription>The signup payment is cycle 1; each renewal the provider invoiced follows, newest first.</CardDescription>
        </CardHeader>
        <CardContent>
          <Table>
            <TableCaption className="sr-only">Cycles of this subscription</TableCaption>
            <TableHeader>
              <TableRow className="hover:bg-transparent">
                <TableHead scope="col">Cycle</TableHead>
                <TableHead scope="col">Payment</TableHead>
                <TableHead scope="col">Amount</TableHead>
                <TableHead scope="col">Status</TableHead>
                <TableHead scope="col">Invoice</TableHead>
                <TableHead scope="col">Period ends</TableHead>
                <TableHead scope="col">Created</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {detail.cycles.map((c) => {
                const status = c.payment ? paymentStatusLabel(c.payment.status) : null;
                return (
                  <TableRow key={c.cycle}>
                    <TableCell>
                      {c.cycle} <span className="text-muted-foreground">({c.kind})</span>
                    </TableCell>
                    <TableCell>
                      {c.session_id ? (
                        <Link href={`/dashboard/payments/${c.session_id}`} className="text-primary underline-offset-4 hover:underline">
                          {c.order_id ?? c.session_id}
                        </Link>
                      ) : (
                        <span className="text-muted-foreground">No payment yet</span>
                      )}
                    </TableCell>
                    <TableCell className="tabular-nums">
                      {c.payment ? money(c.payment.amount) : "—"}
                      {c.payment && c.payment.refunded_amount > 0 && <span className="text-muted-foreground"> ({money(c.payment.refunded_amount)} refunded)</span>}
                    </TableCell>
                    <TableCell>{status ? <Badge variant={status.tone}>{status.label}</Badge> : "—"}</TableCell>
                    <TableCell>{c.invoice_status}</TableCell>
                    <TableCell>{formatDateTime(c.period_end)}</TableCell>
                    <TableCell>{formatDateTime(c.created_at)}</TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </CardContent>
      </Card>
    </div>
  );
}
