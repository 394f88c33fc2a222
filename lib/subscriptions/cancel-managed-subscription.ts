import type { Db } from "@/db/client";
import type { Subscription } from "@/db/schema";
import { SubscriptionNotFoundError } from "@/lib/errors";
import { cancelSubscription } from "./cancel-subscription";
import { getManagedSubscription } from "./get-managed-subscription";

/** The management page's cancel: the token is the credential; always at period end, by the payer. */
export async function cancelManagedSubscription(db: Db, token: string): Promise<Subscription> {
  const managed = await getManagedSubscription(db, token);
  if (!managed) throw new SubscriptionNotFoundError();
  return cancelSubscription(db, managed.businessId, managed.id, { atPeriodEnd: true, by: "payer" });
}
