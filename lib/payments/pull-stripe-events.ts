import type Stripe from "stripe";
import type { Db } from "@/db/client";
import type { Business } from "@/db/schema";
import { readProviderConfig } from "@/lib/providers/provider-config";
import { stripeFor } from "@/lib/providers/provider-for";
import { stripeWebhookEvents } from "@/lib/providers/stripe/stripe-client";
import { candidateBusinesses, storeEvent } from "./provider-events";

/**
 * Where a pull of a sandbox business's Stripe events starts: after the newest event its account
 * had then (null: from its first event), or nothing to pull (no Stripe account used yet).
 */
export type EventCursor = { after: string | null } | null;

/** Only sandbox businesses that have used their emulator account: nothing else is asked. */
async function sandboxStripe(db: Db, business: Pick<Business, "id" | "mode">): Promise<Stripe | null> {
  if (business.mode !== "sandbox") return null;
  if (!(await readProviderConfig(db, business.id, "stripe"))) return null;
  return stripeFor(db, business);
}

/** The newest event of the business's emulator account now: pulls later start after it. */
export async function stripeEventCursor(
  db: Db,
  business: Pick<Business, "id" | "mode">,
): Promise<EventCursor> {
  const stripe = await sandboxStripe(db, business);
  if (!stripe) return null;
  const { data } = await stripe.events.list({ limit: 1 });
  return { after: data[0]?.id ?? null };
}

const wanted = new Set<string>(stripeWebhookEvents);

/**
 * Reads the events of a sandbox business's emulator account newer than `cursor` (oldest first)
 * and stores each that Kassa's endpoint listens to and has not received yet, as if its webhook had
 * arrived (a webhook still on its way is then a duplicate): the sandbox clock does not depend on
 * the provider's deliveries being on time. Events are attributed as received ones are. Moves the
 * cursor past what it read; answers how many events were new to Kassa.
 */
export async function pullStripeEvents(
  db: Db,
  business: Pick<Business, "id" | "mode">,
  cursor: EventCursor,
): Promise<number> {
  if (!cursor) return 0;
  const stripe = await sandboxStripe(db, business);
  if (!stripe) return 0;
  let stored = 0;
  for (const event of await eventsAfter(stripe, cursor.after)) {
    cursor.after = event.id;
    if (!wanted.has(event.type)) continue;
    const object = event.data.object as unknown as Record<string, unknown>;
    const owners = await candidateBusinesses(db, "stripe", object, {
      orPayingNow: event.type.startsWith("charge.dispute."),
    });
    if (!owners.includes(business.id)) continue;
    const received = await storeEvent(db, {
      businessId: business.id,
      provider: "stripe",
      eventId: event.id,
      type: event.type,
      payload: JSON.parse(JSON.stringify(event)) as Record<string, unknown>,
    });
    if (received.status === "accepted") stored++;
  }
  return stored;
}

/** Every event newer than `after`, oldest first (Stripe lists newest first; `ending_before` pages forward). */
async function eventsAfter(stripe: Stripe, after: string | null): Promise<Stripe.Event[]> {
  if (after === null) {
    const all: Stripe.Event[] = [];
    for await (const event of stripe.events.list({ limit: 100 })) all.push(event);
    return all.reverse();
  }
  const events: Stripe.Event[] = [];
  let before = after;
  for (;;) {
    const page = await stripe.events.list({ limit: 100, ending_before: before });
    events.push(...[...page.data].reverse());
    if (!page.has_more || page.data.length === 0) return events;
    before = page.data[0]!.id;
  }
}
