import type { Db } from "@/db/client";
import type { Subscription } from "@/db/schema";
import { SubscriptionNotFoundError } from "@/lib/errors";
import { getManagedSubscription } from "./get-managed-subscription";
import { resumeSubscription } from "./resume-subscription";

/** The management page's undo: withdraws only a cancellation the payer scheduled (403 otherwise). */
export async function resumeManagedSubscription(db: Db, token: string): Promise<Subscription> {
  const managed = await getManagedSubscription(db, token);
  if (!managed) throw new SubscriptionNotFoundError();
  return resumeSubscription(db, managed.businessId, managed.id, { by: "payer" });
}
