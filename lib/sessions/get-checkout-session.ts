import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, payments, sessions } from "@/db/schema";
import { sessionExpired } from "@/lib/payments/get-payment";

export type CheckoutView =
  | { state: "not_found" }
  | {
      state: "open" | "expired" | "paid" | "in_progress";
      merchant: string;
      mode: "sandbox" | "live";
      sessionId: string;
      amount: number;
      currency: string;
      description: string | null;
      items: { name: string; quantity: number; price: number }[];
      paymentStatus: string | null;
    };

/** What the hosted page shows for a session id (no secrets, nothing the customer may not see). */
export async function getCheckoutSession(db: Db, sessionId: string): Promise<CheckoutView> {
  if (!/^cs_[0-9A-Za-z]{1,64}$/.test(sessionId)) return { state: "not_found" };
  const [row] = await db
    .select({ session: sessions, business: businesses, payment: payments })
    .from(sessions)
    .innerJoin(businesses, eq(businesses.id, sessions.businessId))
    .leftJoin(payments, eq(payments.sessionId, sessions.id))
    .where(eq(sessions.id, sessionId))
    .limit(1);
  if (!row) return { state: "not_found" };
  const status = row.payment?.status ?? null;
  const state =
    status === "succeeded"
      ? "paid"
      : status === "expired" || (!row.payment && sessionExpired(row.session, row.business))
        ? "expired"
        : status && status !== "failed"
          ? "in_progress"
          : "open";
  return {
    state,
    merchant: row.business.name,
    mode: row.business.mode,
    sessionId: row.session.id,
    amount: row.payment?.amount ?? row.session.amount,
    currency: row.session.currency,
    description: row.session.description,
    items: row.session.items,
    paymentStatus: status,
  };
}
