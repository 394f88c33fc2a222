import type { Db } from "@/db/client";
import { findSubscription } from "./subscription-records";
import { subscriptionView, type SubscriptionView } from "./subscription-view";

/** GET /subscriptions/{id}: another business's subscription is as unknown as a missing one. */
export async function getSubscription(
  db: Db,
  businessId: string,
  subscriptionId: string,
): Promise<SubscriptionView> {
  return subscriptionView(await findSubscription(db, subscriptionId, businessId));
}
