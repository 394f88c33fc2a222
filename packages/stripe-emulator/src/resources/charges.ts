import type Stripe from "stripe";
import { invalidRequest } from "../errors";
import { emit, snapshot } from "../events";
import { newObjectId, randomBase62 } from "../ids";
import { paginate } from "../list";
import { requireObject } from "../lookup";
import { createBalanceTransaction } from "../payments";
import { listing, retrieving } from "../accepted-params";
import type { Route } from "../router";
import { runDueWork } from "../clock";
import { accountNow, automatic, type Ctx, clockOfCustomer, idOf, timeForCustomer } from "../state";
import { refundCard, refundFailureDelaySeconds } from "./refund-failures";

const formatDollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/**
 * Real-time (clockless) work runs at the account's next request; a refund that changes on its own
 * also wakes the account when it falls due, as Stripe would act without being asked. (After a
 * restart, the next request does it.)
 */
function wakeAt(ctx: Ctx, at: number): void {
  const { emu, account } = ctx;
  const timer = setTimeout(
    () => {
      emu.wakeTimers.delete(timer);
      const saving = emu.saver
        .run(account, "write", () =>
          runDueWork({ emu, account, request: automatic }, null, accountNow(emu, account)),
        )
        .catch(() => undefined);
      emu.background.add(saving);
      void saving.finally(() => emu.background.delete(saving));
    },
    Math.max(0, (at - accountNow(emu, account)) * 1000) + 1000,
  );
  timer.unref();
  emu.wakeTimers.add(timer);
}

/** Stripe's refusals before a refund: not succeeded, not captured, charged back, nothing left, too much. */
function refundableAmount(ctx: Ctx, charge: Stripe.Charge, amount: number | undefined): number {
  if (charge.status !== "succeeded") {
    throw invalidRequest(`Charge ${charge.id} has not succeeded and cannot be refunded.`, {
      code: "charge_not_refundable",
    });
  }
  if (!charge.captured) {
    throw invalidRequest(
      `Charge ${charge.id} has not been captured. Cancel its PaymentIntent to release the authorization instead.`,
      { code: "charge_not_refundable" },
    );
  }
  const chargedBack = ctx.account.store
    .all("dispute")
    .some((dispute) => dispute.charge === charge.id && !dispute.is_charge_refundable);
  if (chargedBack) {
    throw invalidRequest(`Charge ${charge.id} has been charged back; cannot issue a refund.`, {
      code: "charge_disputed",
    });
  }
  const remaining = charge.amount_captured - charge.amount_refunded;
  if (remaining <= 0) {
    throw invalidRequest(`Charge ${charge.id} has already been refunded.`, {
      code: "charge_already_refunded",
    });
  }
  const refundAmount = amount ?? remaining;
  if (refundAmount > remaining) {
    throw invalidRequest(
      `Refund amount (${formatDollars(refundAmount)}) is greater than unrefunded amount on charge (${formatDollars(remaining)})`,
      { param: "amount" },
    );
  }
  return refundAmount;
}

function newRefund(
  charge: Stripe.Charge,
  fields: { amount: number; created: number; customer: string | null; pending: boolean },
  { reason, metadata }: { reason: Stripe.Refund.Reason | null; metadata: Record<string, string> },
): Stripe.Refund {
  return {
    id: newObjectId("re"),
    object: "refund",
    amount: fields.amount,
    balance_transaction: null,
    charge: charge.id,
    created: fields.created,
    currency: charge.currency,
    customer: fields.customer,
    customer_account: null,
    destination_details: {
      card: {
        reference: randomBase62(23),
        reference_status: "available",
        reference_type: "acquirer_reference_number",
        type: "refund",
      },
      type: "card",
    },
    metadata,
    payment_intent: charge.payment_intent,
    payment_method: charge.payment_method,
    reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: fields.pending ? "pending" : "succeeded",
    transfer_reversal: null,
  };
}

/** A full or partial refund of a captured charge; Stripe refunds cards at once in test mode. */
export function refundCharge(
  ctx: Ctx,
  charge: Stripe.Charge,
  options: { amount?: number; reason: Stripe.Refund.Reason | null; metadata: Record<string, string> },
): Stripe.Refund {
  const refundAmount = refundableAmount(ctx, charge, options.amount);
  const customer = idOf(charge.customer as string | null);
  const created = timeForCustomer(ctx, customer);
  const card = refundCard(ctx, charge.payment_method);
  const pending = Boolean(card?.refundPendsFirst);
  const refund = newRefund(charge, { amount: refundAmount, created, customer, pending }, options);
  ctx.account.store.insert("refund", refund);
  if ((card?.refundFailsLater || card?.refundPendsFirst) && clockOfCustomer(ctx, customer) === null)
    wakeAt(ctx, created + refundFailureDelaySeconds);
  refund.balance_transaction = createBalanceTransaction(ctx, {
    amount: -refundAmount,
    fee: 0,
    currency: charge.currency,
    source: refund.id,
    type: "refund",
    created,
    description: "REFUND FOR CHARGE",
  }).id;
  const before = snapshot(charge);
  charge.amount_refunded += refundAmount;
  charge.refunded = charge.amount_refunded >= charge.amount_captured;
  emit(ctx, "refund.created", refund, { created });
  emit(ctx, "charge.refunded", charge, { created, before });
  return refund;
}

function chargeToRefund(
  ctx: Ctx,
  paymentIntentId: string | undefined,
  chargeId: string | undefined,
): Stripe.Charge {
  if (chargeId) return requireObject(ctx, "charge", chargeId, "charge");
  if (!paymentIntentId) {
    throw invalidRequest(
      "One of the following params should be provided for this request: payment_intent or charge.",
      {
        code: "parameter_missing",
      },
    );
  }
  const intent = requireObject(ctx, "payment_intent", paymentIntentId, "payment_intent");
  const latest = idOf(intent.latest_charge as string | null);
  const charge = latest ? ctx.account.store.get("charge", latest) : undefined;
  if (!charge || intent.status !== "succeeded") {
    throw invalidRequest(`This PaymentIntent (${intent.id}) does not have a successful charge to refund.`, {
      param: "payment_intent",
      code: "charge_not_refundable",
    });
  }
  return charge;
}

export const chargeRoutes: Route[] = [
  // GET /v1/charges/:id
  {
    method: "GET",
    path: "/v1/charges/:id",
    stripeParams: "ChargeRetrieveParams",
    accepts: retrieving,
    handler: ({ ctx, path }) => requireObject(ctx, "charge", path.id),
  },
  // POST /v1/charges/:id
  {
    method: "POST",
    path: "/v1/charges/:id",
    stripeParams: "ChargeUpdateParams",
    accepts: ["expand", "metadata", "description"],
    handler: ({ ctx, params, path }) => {
      const charge = requireObject(ctx, "charge", path.id);
      const before = snapshot(charge);
      const metadata = params.metadata("metadata", charge.metadata);
      if (metadata) charge.metadata = metadata;
      const description = params.nullableString("description");
      if (description !== undefined) charge.description = description;
      emit(ctx, "charge.updated", charge, {
        created: timeForCustomer(ctx, idOf(charge.customer as string | null)),
        before,
      });
      return charge;
    },
  },
  // GET /v1/charges
  {
    method: "GET",
    path: "/v1/charges",
    stripeParams: "ChargeListParams",
    accepts: listing("payment_intent", "customer"),
    handler: ({ ctx, params }) => {
      const intent = params.string("payment_intent");
      const customer = params.string("customer");
      const all = ctx.account.store
        .all("charge")
        .filter(
          (charge) =>
            (intent ? charge.payment_intent === intent : true) &&
            (customer ? charge.customer === customer : true),
        );
      return paginate(all, params, "/v1/charges");
    },
  },
  // GET /v1/balance_transactions/:id
  {
    method: "GET",
    path: "/v1/balance_transactions/:id",
    stripeParams: "BalanceTransactionRetrieveParams",
    accepts: retrieving,
    handler: ({ ctx, path }) => requireObject(ctx, "balance_transaction", path.id),
  },
  // POST /v1/refunds
  {
    method: "POST",
    path: "/v1/refunds",
    stripeParams: "RefundCreateParams",
    accepts: ["expand", "payment_intent", "charge", "amount", "reason", "metadata"],
    handler: ({ ctx, params }) => {
      const charge = chargeToRefund(ctx, params.string("payment_intent"), params.string("charge"));
      return refundCharge(ctx, charge, {
        amount: params.int("amount", { min: 1 }),
        reason: params.oneOf("reason", ["duplicate", "fraudulent", "requested_by_customer"] as const) ?? null,
        metadata: params.metadata("metadata") ?? {},
      });
    },
  },
  // GET /v1/refunds/:id
  {
    method: "GET",
    path: "/v1/refunds/:id",
    stripeParams: "RefundRetrieveParams",
    accepts: retrieving,
    handler: ({ ctx, path }) => requireObject(ctx, "refund", path.id),
  },
  // POST /v1/refunds/:id
  {
    method: "POST",
    path: "/v1/refunds/:id",
    stripeParams: "RefundUpdateParams",
    accepts: ["expand", "metadata"],
    handler: ({ ctx, params, path }) => {
      const refund = requireObject(ctx, "refund", path.id);
      const metadata = params.metadata("metadata", refund.metadata ?? {});
      if (metadata) refund.metadata = metadata;
      return refund;
    },
  },
  // GET /v1/refunds
  {
    method: "GET",
    path: "/v1/refunds",
    stripeParams: "RefundListParams",
    accepts: listing("payment_intent", "charge"),
    handler: ({ ctx, params }) => {
      const intent = params.string("payment_intent");
      const charge = params.string("charge");
      const all = ctx.account.store
        .all("refund")
        .filter(
          (refund) =>
            (intent ? refund.payment_intent === intent : true) && (charge ? refund.charge === charge : true),
        );
      return paginate(all, params, "/v1/refunds");
    },
  },
];
