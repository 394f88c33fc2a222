import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { selectStatement } from "@/db/statement-per-db";
import { businessPaymentMethods, businessProviders, paymentMethods } from "@/db/schema";

/** Methods the business can take now: enabled for it, with an active provider configuration. */
export async function activeMethods(db: Db, businessId: string) {
  return (await activeMethodRows(db, { businessId })).map((r) => r.method);
}

// Built once (every payment reads it under the session's lock).
const activeMethodRows = selectStatement("kassa_active_methods", (db) =>
  db
    .select({ method: paymentMethods })
    .from(businessPaymentMethods)
    .innerJoin(paymentMethods, eq(paymentMethods.id, businessPaymentMethods.methodId))
    .innerJoin(
      businessProviders,
      and(
        eq(businessProviders.businessId, businessPaymentMethods.businessId),
        eq(businessProviders.provider, paymentMethods.provider),
      ),
    )
    .where(
      and(
        eq(businessPaymentMethods.businessId, sql.placeholder("businessId")),
        eq(businessPaymentMethods.enabled, true),
        eq(businessProviders.active, true),
      ),
    )
    .orderBy(paymentMethods.sortOrder),
);
