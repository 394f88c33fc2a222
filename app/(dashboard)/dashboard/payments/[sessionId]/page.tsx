import { ArrowLeft } from "lucide-react";
import Link from "next/link";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { cn } from "@/components/ui/cn";
import { formatDateTime } from "@/lib/dashboard/format";
import { getPaymentDetail, type PaymentDetail } from "@/lib/dashboard/get-payment-detail";
import { getDb } from "@/lib/db";
import { PaymentNotFoundError } from "@/lib/errors";
import { formatMoney, formatMoneyOrDash } from "@/lib/money";
import { requireStaffFor } from "@/lib/staff/current-staff";
import { PaymentDisputeBadge, PaymentStatus } from "../../_components/payment-status";
import { staffLocale } from "../../_components/staff-locale";
import { PaymentActions } from "./payment-actions";

export const metadata = { title: "Payment" };

function Field({ label, children, mono = false }: { label: string; children: ReactNode; mono?: boolean }) {
  return (
    <div className="grid gap-0.5 py-2 sm:grid-cols-[12rem_minmax(0,1fr)] sm:gap-4">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className={cn("min-w-0 break-words text-sm", mono && "font-mono text-xs")}>{children ?? "—"}</dd>
    </div>
  );
}

const toneClass = { neutral: "bg-muted-foreground", good: "bg-success", bad: "bg-destructive", warn: "bg-amber-500" } as const;

async function load(businessId: string, sessionId: string): Promise<PaymentDetail> {
  try {
    return await getPaymentDetail(await getDb(), businessId, sessionId);
  } catch (error) {
    if (error instanceof PaymentNotFoundError) notFound();
    throw error;
  }
}

// GET /dashboard/payments/{session_id}: every field of the interface's Payment, what happened, and the actions.
export default async function PaymentPage({ params }: { params: Promise<{ sessionId: string }> }) {
  const staff = await requireStaffFor("read");
  const { sessionId } = await params;
  const { payment: p, internal, refunds, events, timeline } = await load(staff.businessId, sessionId);
  const money = (cents: number | null) => formatMoneyOrDash(cents, p.currency);
  const address = p.customer_details?.address;
  const card = p.payment_details?.card;

  return (
    <div className="grid grid-cols-1 gap-6">
      <div className="grid gap-2">
        <Link href="/dashboard/payments" className="inline-flex w-fit items-center gap-1 text-sm text-primary underline-offset-4 hover:underline">
          <ArrowLeft aria-hidden className="size-4" /> Payments
        </Link>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold tracking-tight">
            <span className="sr-only">Payment </span>
            {formatMoney(p.amount, p.currency)}
          </h1>
          <PaymentStatus status={p.status} />
          <PaymentDisputeBadge dispute={internal.dispute} link />
          {internal.refundedAmount > 0 && <Badge variant="secondary">{money(internal.refundedAmount)} refunded</Badge>}
        </div>
        <p className="text-sm text-muted-foreground">
          Order <span className="font-medium text-foreground" data-testid="order-id">{p.order_id}</span> · {formatDateTime(p.created_at)}
        </p>
      </div>

      <PaymentActions
        businessId={staff.businessId}
        sessionId={p.session_id}
        amount={p.amount}
        currency={p.currency}
        refundable={internal.refundable}
        notRefundableReason={internal.notRefundableReason}
        inReview={p.status === "pending_review"}
        locale={await staffLocale()}
      />

      <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,1fr)_24rem]">
        <div className="grid min-w-0 grid-cols-1 content-start gap-6">
          <Card>
            <CardHeader>
              <CardTitle>Payment</CardTitle>
              <CardDescription>The fields of the Payment object (GET /payment/{"{session_id}"}).</CardDescription>
            </CardHeader>
            <CardContent>
              <dl className="divide-y">
                <Field label="Session id" mono>{p.session_id}</Field>
                <Field label="Status">{p.status ?? "not paid yet"}</Field>
                <Field label="Amount">{money(p.amount)}</Field>
                <Field label="Fees">{money(p.fees)}</Field>
                <Field label="Net amount">{money(p.net_amount)}</Field>
                <Field label="Currency">{p.currency}</Field>
                <Field label="Order id">{p.order_id}</Field>
                <Field label="Customer">{p.customer}</Field>
                <Field label="Description">{p.description || "—"}</Field>
                <Field label="Payment method">{p.payment_method}</Field>
                <Field label="Provider">{p.provider}</Field>
                <Field label="Created">{p.created_at}</Field>
                <Field label="IP address">{p.ip}</Field>
                <Field label="Country">{p.country}</Field>
                <Field label="Browser (user agent)">{p.user_agent}</Field>
              </dl>
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <CardTitle>Items</CardTitle>
            </CardHeader>
            <CardContent>
              <Table>
                <TableCaption className="sr-only">Items</TableCaption>
                <TableHeader>
                  <TableRow>
                    <TableHead scope="col">Name</TableHead>
                    <TableHead scope="col">Quantity</TableHead>
                    <TableHead scope="col">Price</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {p.items.map((item, i) => (
                    <TableRow key={i}>
                      <TableCell className="whitespace-normal">{item.name}</TableCell>
                      <TableCell className="tabular-nums">{item.quantity}</TableCell>
                      <TableCell className="tabular-nums">{money(item.price)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <CardTitle>Customer and payment details</CardTitle>
            </CardHeader>
            <CardContent>
              <dl className="divide-y">
                <Field label="Name">{p.customer_details?.name}</Field>
                <Field label="E-mail">{p.customer_details?.email}</Field>
                <Field label="Phone">{p.customer_details?.phone}</Field>
                <Field label="Address">
                  {address ? [address.line1, address.line2, address.postal_code, address.city, address.state, address.country].filter(Boolean).join(", ") || "—" : null}
                </Field>
                <Field label="Payment type">{p.payment_details?.type}</Field>
                <Field label="Card">
                  {card ? `${card.brand} ···· ${card.last4}, expires ${card.exp_month}/${card.exp_year}${card.country ? `, ${card.country}` : ""}` : null}
                </Field>
                <Field label="Metadata" mono>
                  {Object.keys(p.metadata ?? {}).length ? <pre className="whitespace-pre-wrap">{JSON.stringify(p.metadata, null, 2)}</pre> : null}
                </Field>
              </dl>
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <CardTitle>Risk and refunds</CardTitle>
            </CardHeader>
            <CardContent>
              <dl className="divide-y">
                <Field label="Fraud screening">
                  {internal.fraudDecision ? `${internal.fraudDecision}${internal.fraudReasons.length ? ` (${internal.fraudReasons.join(", ")})` : ""}` : null}
                </Field>
                <Field label="Provider risk level">{internal.riskLevel}</Field>
                <Field label="Screening fee">{internal.screeningFee ? money(internal.screeningFee) : null}</Field>
                <Field label="Failure">{internal.failureCode ? `${internal.failureCode}: ${internal.failureMessage ?? ""}` : null}</Field>
                <Field label="Received (redirect methods)">{internal.amountReceived !== null ? money(internal.amountReceived) : null}</Field>
                <Field label="Refunded">{money(internal.refundedAmount)}</Field>
                <Field label="Session expires">{formatDateTime(internal.expiresAt)}</Field>
              </dl>
              {refunds.length > 0 && (
                <Table>
                  <TableCaption className="sr-only">Refunds</TableCaption>
                  <TableHeader>
                    <TableRow>
                      <TableHead scope="col">Refund</TableHead>
                      <TableHead scope="col">Amount</TableHead>
                      <TableHead scope="col">Status</TableHead>
                      <TableHead scope="col">Reason</TableHead>
                      <TableHead scope="col">Why it failed</TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {refunds.map((r) => (
                      <TableRow key={r.id}>
                        <TableCell className="font-mono text-xs">{r.id}</TableCell>
                        <TableCell className="tabular-nums">{money(r.amount)}</TableCell>
                        <TableCell>
                          <Badge variant={r.status === "succeeded" ? "success" : r.status === "failed" ? "destructive" : "outline"}>{r.status}</Badge>
                        </TableCell>
                        <TableCell>{r.reason.replaceAll("_", " ")}</TableCell>
                        <TableCell className="whitespace-normal">{r.status === "failed" ? (r.failureMessage ?? "Refused by the provider") : "—"}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              )}
            </CardContent>
          </Card>
        </div>

        <div className="grid min-w-0 grid-cols-1 content-start gap-6">
          <Card>
            <CardHeader>
              <CardTitle>Timeline</CardTitle>
              <CardDescription>Attempts, refunds, disputes, webhook events and each delivery attempt, oldest first (UTC).</CardDescription>
            </CardHeader>
            <CardContent>
              <ol className="grid gap-3" data-testid="timeline">
                {timeline.map((t, i) => (
                  <li key={i} className="grid grid-cols-[0.75rem_1fr] gap-2">
                    <span aria-hidden className={cn("mt-1.5 size-2 rounded-full", toneClass[t.tone])} />
                    <div className="min-w-0">
                      <p className="text-sm font-medium">
                        {t.href ? (
                          <Link href={t.href} className="text-primary underline-offset-4 hover:underline">
                            {t.title}
                          </Link>
                        ) : (
                          t.title
                        )}
                      </p>
                      {t.detail && <p className="break-words text-sm text-muted-foreground">{t.detail}</p>}
                      <p className="text-xs text-muted-foreground">
                        <time dateTime={t.at}>{formatDateTime(t.at)}</time>
                      </p>
                    </div>
                  </li>
                ))}
              </ol>
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <CardTitle>Webhook deliveries</CardTitle>
            </CardHeader>
            <CardContent>
              {events.length === 0 ? (
                <p className="text-sm text-muted-foreground">No webhook event for this payment.</p>
              ) : (
                <ul className="grid gap-4">
                  {events.map((e) => (
                    <li key={e.id} className="grid gap-1">
                      <p className="flex flex-wrap items-center gap-2 text-sm">
                        <span className="font-medium">{e.type}</span>
                        <Badge variant={e.status === "delivered" ? "success" : e.status === "failed" ? "destructive" : "outline"}>{e.status}</Badge>
                      </p>
                      <p className="font-mono text-xs text-muted-foreground">{e.id}</p>
                      {e.deliveries.length > 0 && (
                        <ul className="grid gap-1 text-xs">
                          {e.deliveries.map((d) => (
                            <li key={d.id}>
                              {d.source === "listen" ? "kassa listen " : ""}#{d.number} {formatDateTime(d.startedAt)} — {d.statusCode ? `HTTP ${d.statusCode}` : d.outcome}
                              {d.durationMs !== null ? `, ${d.durationMs} ms` : ""}
                              {d.error ? `: ${d.error}` : ""}
                            </li>
                          ))}
                        </ul>
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </CardContent>
          </Card>
        </div>
      </div>
    </div>
  );
}
