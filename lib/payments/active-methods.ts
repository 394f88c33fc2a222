import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businessPaymentMethods, businessProviders, paymentMethods } from "@/db/schema";

/** Methods the business can take now: enabled for it, with an active provider configuration. */
export async function activeMethods(db: Db, businessId: string) {
  return db
    .select({ method: paymentMethods })
    .from(businessPaymentMethods)
    .innerJoin(paymentMethods, eq(paymentMethods.id, businessPaymentMethods.methodId))
    .innerJoin(
      businessProviders,
      and(eq(businessProviders.businessId, businessPaymentMethods.businessId), eq(businessProviders.provider, paymentMethods.provider)),
    )
    .where(
      and(
        eq(businessPaymentMethods.businessId, businessId),
        eq(businessPaymentMethods.enabled, true),
        eq(businessProviders.active, true),
      ),
    )
    .orderBy(paymentMethods.sortOrder)
    .then((rows) => rows.map((r) => r.method));
}
