import type Stripe from "stripe";
import { emit, snapshot } from "../events";
import { dueDisputes } from "../disputes/settle-dispute";
import { dueRefundFailures } from "../resources/refund-failures";
import { type Ctx, idOf, timeOn } from "../state";
import { collectInvoice } from "./collect-invoice";
import { createInvoice } from "./create-invoice";
import { voidInvoice } from "./invoice-closing";
import { itemLines } from "./invoice-lines";
import { finalizeInvoice } from "./invoice-outcomes";
import { nextBillingDate, periodOf, recurringOf, setPeriod } from "./periods";
import { endSubscription } from "./subscription-status";

/** At the end of a period: end the subscription if scheduled, else start the next period and bill it. */
function renewSubscription(ctx: Ctx, subscription: Stripe.Subscription): void {
  const { end } = periodOf(subscription);
  const at = timeOn(ctx, idOf(subscription.test_clock as string | null));
  if (subscription.cancel_at !== null && subscription.cancel_at <= at) {
    endSubscription(ctx, subscription, {
      reason: subscription.cancellation_details?.reason ?? "cancellation_requested",
    });
    return;
  }
  const before = snapshot(subscription);
  const { interval, interval_count } = recurringOf(subscription);
  const nextEnd = nextBillingDate(subscription.billing_cycle_anchor, interval, interval_count, end);
  setPeriod(subscription, end, nextEnd);
  if (subscription.status === "trialing") subscription.status = "active";
  const invoice = createInvoice(ctx, subscription, {
    billingReason: "subscription_cycle",
    lines: itemLines(ctx, subscription, end, nextEnd),
    periodStart: before.items.data[0]?.current_period_start ?? end,
    periodEnd: end,
  });
  subscription.latest_invoice = invoice.id;
  emit(ctx, "customer.subscription.updated", subscription, { created: at, before });
  if (subscription.status === "unpaid") {
    // Stripe keeps creating invoices for unpaid subscriptions but leaves them as drafts.
    invoice.auto_advance = false;
    return;
  }
  // Stripe leaves a renewal invoice in draft for an hour before finalizing and charging it.
  invoice.automatically_finalizes_at = at + draftWindow;
}

const draftWindow = 3600;

/** A draft's hour is up (or it is finalized through the API with auto_advance): finalize, then charge. */
export function advanceDraft(ctx: Ctx, invoice: Stripe.Invoice): void {
  finalizeInvoice(ctx, invoice);
  if (invoice.status === "open" && invoice.auto_advance) collectInvoice(ctx, invoice, { offSession: true });
}

/** Incomplete subscriptions expire 23 hours after creation; their first invoice is voided. */
function expireIncomplete(ctx: Ctx, subscription: Stripe.Subscription): void {
  const at = timeOn(ctx, idOf(subscription.test_clock as string | null));
  const invoiceId = idOf(subscription.latest_invoice as string | null);
  const invoice = invoiceId ? ctx.account.store.get("invoice", invoiceId) : undefined;
  if (invoice?.status === "open") voidInvoice(ctx, invoice);
  const before = snapshot(subscription);
  subscription.status = "incomplete_expired";
  subscription.ended_at = at;
  emit(ctx, "customer.subscription.updated", subscription, { created: at, before });
}

const incompleteLifetime = 23 * 3600;

/** The next piece of billing work due in one time domain (a test clock, or real time when null). */
export function nextDueWork(ctx: Ctx, clockId: string | null): { at: number; run: () => void } | undefined {
  let next: { at: number; run: () => void } | undefined;
  const consider = (at: number, run: () => void) => {
    if (!next || at < next.at) next = { at, run };
  };
  for (const invoice of ctx.account.store.all("invoice")) {
    if (idOf(invoice.test_clock as string | null) !== clockId) continue;
    if (invoice.status === "draft" && invoice.auto_advance && invoice.automatically_finalizes_at !== null) {
      consider(invoice.automatically_finalizes_at, () => advanceDraft(ctx, invoice));
    }
    if (invoice.status === "open" && invoice.auto_advance && invoice.next_payment_attempt !== null) {
      consider(invoice.next_payment_attempt, () => collectInvoice(ctx, invoice, { offSession: true }));
    }
  }
  for (const failure of dueRefundFailures(ctx, clockId)) consider(failure.at, failure.run);
  for (const work of dueDisputes(ctx, clockId)) consider(work.at, work.run);
  for (const subscription of ctx.account.store.all("subscription")) {
    if (idOf(subscription.test_clock as string | null) !== clockId) continue;
    if (subscription.status === "incomplete") {
      consider(subscription.created + incompleteLifetime, () => expireIncomplete(ctx, subscription));
    } else if (["active", "trialing", "past_due", "unpaid"].includes(subscription.status)) {
      const { end } = periodOf(subscription);
      const at = subscription.cancel_at !== null ? Math.min(end, subscription.cancel_at) : end;
      consider(at, () => renewSubscription(ctx, subscription));
    }
  }
  return next;
}
