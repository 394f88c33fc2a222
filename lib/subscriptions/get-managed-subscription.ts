import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, payments, subscriptions, type Subscription, type SubscriptionActor } from "@/db/schema";
import { isoMicros } from "@/lib/time";
import { managementTokenDigest } from "./management-token";

/** A management token as issued: 32 bytes in base64url, no padding. */
const tokenPattern = /^[A-Za-z0-9_-]{43}$/;

/** What the customer's management page shows: nothing secret, nothing of other subscriptions. */
export type ManagedSubscription = {
  id: string;
  businessId: string;
  merchant: string;
  mode: "sandbox" | "live";
  status: Subscription["status"];
  /** Cents charged at each renewal. */
  amount: number;
  currency: string;
  interval: Subscription["interval"];
  intervalCount: number;
  itemNames: string[];
  /** ISO 8601 in UTC, like the API. */
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  cancelRequestedBy: SubscriptionActor | null;
  canceledAt: string | null;
  card: { brand: string; last4: string } | null;
};

const time = (value: string | null) => (value === null ? null : isoMicros(value));

/** The subscription a management link's token opens; null for an unknown or malformed token. */
export async function getManagedSubscription(db: Db, token: string): Promise<ManagedSubscription | null> {
  if (!tokenPattern.test(token)) return null;
  const [row] = await db
    .select({ subscription: subscriptions, business: businesses, paymentDetails: payments.paymentDetails })
    .from(subscriptions)
    .innerJoin(businesses, eq(businesses.id, subscriptions.businessId))
    .leftJoin(payments, eq(payments.id, subscriptions.initialPaymentId))
    .where(eq(subscriptions.managementTokenDigest, managementTokenDigest(token)))
    .limit(1);
  if (!row) return null;
  const { subscription: s, business } = row;
  const card = row.paymentDetails?.card;
  return {
    id: s.id,
    businessId: s.businessId,
    merchant: business.name,
    mode: business.mode,
    status: s.status,
    amount: s.unitAmount,
    currency: s.currency,
    interval: s.interval,
    intervalCount: s.intervalCount,
    itemNames: s.items.map((item) => item.name),
    currentPeriodEnd: time(s.currentPeriodEnd),
    cancelAtPeriodEnd: s.cancelAtPeriodEnd,
    cancelRequestedBy: s.cancelRequestedBy,
    canceledAt: time(s.canceledAt),
    card: card ? { brand: card.brand, last4: card.last4 } : null,
  };
}
