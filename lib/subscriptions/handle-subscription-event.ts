import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { subscriptions, type ProviderEvent, type Subscription } from "@/db/schema";
import { stripeSubscriptionEvents } from "@/lib/providers/stripe/stripe-client";
import { applyProviderState } from "./apply-provider-state";
import { recordRenewal } from "./record-renewal";
import { billingFor } from "./set-up-subscription";

type Json = Record<string, unknown>;
const asObject = (value: unknown): Json | null =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : null;
const asString = (value: unknown): string | null =>
  typeof value === "string" && value.length <= 255 ? value : null;

export function isSubscriptionEvent(type: string): boolean {
  return (stripeSubscriptionEvents as readonly string[]).includes(type);
}

/** The provider subscription an event is about, and Kassa's id when its metadata carries it. */
function subjectOf(event: ProviderEvent): {
  providerId: string | null;
  kassaId: string | null;
  invoiceId: string | null;
} {
  const object = asObject(asObject(event.payload.data)?.object);
  if (event.type.startsWith("invoice.")) {
    const details = asObject(asObject(object?.parent)?.subscription_details);
    const sub = details?.subscription ?? object?.subscription;
    return {
      providerId: asString(sub) ?? asString(asObject(sub)?.id),
      kassaId: asString(asObject(details?.metadata)?.kassa_subscription_id),
      invoiceId: asString(object?.id),
    };
  }
  return {
    providerId: asString(object?.id),
    kassaId: asString(asObject(object?.metadata)?.kassa_subscription_id),
    invoiceId: null,
  };
}

async function subscriptionOf(db: Db, event: ProviderEvent, subject: ReturnType<typeof subjectOf>) {
  const byProvider = subject.providerId
    ? await db
        .select()
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.businessId, event.businessId),
            eq(subscriptions.provider, event.provider),
            eq(subscriptions.providerSubscriptionId, subject.providerId),
          ),
        )
        .limit(1)
    : [];
  if (byProvider[0]) return byProvider[0];
  if (!subject.kassaId) return null;
  const [byKassa] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.businessId, event.businessId), eq(subscriptions.id, subject.kassaId)))
    .limit(1);
  // Its events may come before the setup job stored the provider's id; another id is not ours.
  return byKassa && (!byKassa.providerSubscriptionId || byKassa.providerSubscriptionId === subject.providerId)
    ? byKassa
    : null;
}

/**
 * One of the five subscription events from Stripe (decision 0013). The event only says what to
 * look at: the invoice and the subscription are re-read from Stripe and their current state is
 * applied, so duplicates and any order converge on Stripe's state.
 */
export async function handleSubscriptionEvent(
  db: Db,
  event: ProviderEvent,
): Promise<{ handled: boolean; note: string }> {
  const subject = subjectOf(event);
  const subscription: Subscription | null = await subscriptionOf(db, event, subject);
  if (!subscription || !subject.providerId)
    return { handled: false, note: `${event.type}: no Kassa subscription for it` };
  const billing = await billingFor(db, subscription.businessId);
  const notes: string[] = [];
  if (subject.invoiceId) {
    const invoice = await billing.retrieveInvoice(subject.invoiceId);
    const renewal = await recordRenewal(db, subscription.id, invoice, event.type);
    notes.push("cycle" in renewal ? `cycle ${renewal.cycle}: ${renewal.outcome}` : renewal.outcome);
  }
  const state = await billing.retrieveSubscription(subject.providerId);
  const after = await applyProviderState(db, subscription.id, state);
  notes.push(`subscription ${after.id}: ${after.status}${after.cancelAtPeriodEnd ? " (canceling)" : ""}`);
  return { handled: true, note: notes.join("; ") };
}
