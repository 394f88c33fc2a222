import type Stripe from "stripe";
import { settleInvoiceOfIntent } from "./billing";
import { cardInfo, luhnValid } from "./cards";
import { invalidRequest } from "./errors";
import { newRequestId } from "./ids";
import { requireObject } from "./lookup";
import { completeAuthentication } from "./payments";
import { cancelFromDashboard, resumeFromDashboard } from "./resources/subscriptions";
import type { Account, BillingSettings, Ctx, Emulator, Faults } from "./state";

/**
 * Test helpers that are not Stripe's API: what a merchant would do in Stripe's dashboard, what a
 * customer does on a 3D Secure page, and failures to inject. Served under `/_emulator/` (JSON or
 * form bodies, the account's secret key as Bearer) and exported as functions of the emulator.
 */

export const dashboardCtx = (emu: Emulator, account: Account): Ctx => ({
  emu,
  account,
  request: { id: newRequestId(), idempotency_key: null },
});

/** Cancel a subscription as if from Stripe's dashboard: now (default) or at the period end. */
export function cancelSubscriptionFromDashboard(
  ctx: Ctx,
  subscriptionId: string,
  { atPeriodEnd = false }: { atPeriodEnd?: boolean } = {},
): Stripe.Subscription {
  return cancelFromDashboard(ctx, requireObject(ctx, "subscription", subscriptionId), atPeriodEnd);
}

/** Withdraw a scheduled cancellation as if from Stripe's dashboard. */
export function resumeSubscriptionFromDashboard(ctx: Ctx, subscriptionId: string): Stripe.Subscription {
  return resumeFromDashboard(ctx, requireObject(ctx, "subscription", subscriptionId));
}

/** The customer's answer to a 3D Secure challenge; an invoice's PaymentIntent pays its invoice. */
export function authenticatePaymentIntent(
  ctx: Ctx,
  paymentIntentId: string,
  succeed = true,
): Stripe.PaymentIntent {
  const intent = requireObject(ctx, "payment_intent", paymentIntentId);
  completeAuthentication(ctx, intent, succeed);
  settleInvoiceOfIntent(ctx, intent);
  return intent;
}

/** From now on, charges to this payment method behave like the given test card (brand and last4 stay). */
export function setCardBehavior(ctx: Ctx, paymentMethodId: string, cardNumber: string): void {
  requireObject(ctx, "payment_method", paymentMethodId);
  const card = ctx.account.cards.get(paymentMethodId);
  if (!card || !luhnValid(cardNumber)) throw invalidRequest(`Not a valid card number: ${cardNumber}`);
  card.behavior = cardInfo(cardNumber).behavior;
}

export function setBillingSettings(account: Account, settings: Partial<BillingSettings>): BillingSettings {
  if (settings.retryDelaysSeconds) {
    if (!settings.retryDelaysSeconds.every((s) => Number.isInteger(s) && s > 0)) {
      throw invalidRequest("retry_delays_seconds must be positive integers.");
    }
    account.billing.retryDelaysSeconds = [...settings.retryDelaysSeconds];
  }
  if (settings.afterRetries) {
    if (!["cancel", "mark_unpaid", "leave_past_due"].includes(settings.afterRetries)) {
      throw invalidRequest("after_retries must be one of cancel, mark_unpaid, leave_past_due.");
    }
    account.billing.afterRetries = settings.afterRetries;
  }
  return { ...account.billing };
}

export function failNextRequests(
  faults: Faults,
  {
    count = 1,
    status = 500,
    shouldRetry = null,
  }: { count?: number; status?: number; shouldRetry?: boolean | null } = {},
): void {
  if (status < 500 || status > 599) throw invalidRequest("status must be a 5xx code.");
  for (let i = 0; i < count; i++) faults.failNext.push({ status, shouldRetry });
}

export async function waitForIdle(emu: Emulator): Promise<void> {
  for (let round = 0; round < 100; round++) {
    await Promise.all([...emu.background]);
    await emu.webhooks.settled();
    await emu.saver.save();
    if (emu.background.size === 0) return;
  }
}
