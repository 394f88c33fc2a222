import type Stripe from "stripe";
import { resourceMissing } from "./errors";
import type { Ctx, Kind, ObjectKinds } from "./state";

/** Stripe's noun in "No such ..." messages. */
const nouns: Record<Kind, string> = {
  customer: "customer",
  payment_method: "PaymentMethod",
  payment_intent: "payment_intent",
  charge: "charge",
  refund: "refund",
  balance_transaction: "balance transaction",
  product: "product",
  price: "price",
  subscription: "subscription",
  invoice: "invoice",
  invoice_payment: "invoice payment",
  webhook_endpoint: "webhook endpoint",
  "test_helpers.test_clock": "test clock",
  event: "event",
  dispute: "dispute",
  file: "file",
  "radar.early_fraud_warning": "early fraud warning",
};

/** An object of this account by id, or Stripe's 404 (`resource_missing`, naming `param`). */
export function requireObject<K extends Kind>(ctx: Ctx, kind: K, id: string, param = "id"): ObjectKinds[K] {
  const object = ctx.account.store.get(kind, id);
  if (!object || ctx.account.deleted.has(id)) throw resourceMissing(nouns[kind], id, param);
  return object;
}

export const requireCustomer = (ctx: Ctx, id: string, param = "id"): Stripe.Customer =>
  requireObject(ctx, "customer", id, param);
