import type Stripe from "stripe";
import { settleInvoiceOfIntent } from "../billing";
import { invalidRequest } from "../errors";
import { defaultApiVersion } from "../events";
import type { Params } from "../form";
import { confirmIntent } from "../payments";
import type { Ctx } from "../state";
import { paymentMethodFromParams, paymentMethodFromReference } from "./payment-methods";

// Reading a PaymentIntent request: its parameters, and the confirmation a request asks for.

export const returnUrlMessage =
  "This PaymentIntent is configured to accept payment methods enabled in your Dashboard. Because some of these payment methods might redirect your customer off of your page, you must provide a `return_url`. If you don't want to accept redirect-based payment methods, set `automatic_payment_methods[enabled]` to `true` and `automatic_payment_methods[allow_redirects]` to `never` when creating Setup Intents and Payment Intents.";

/** `off_session` is a boolean or `one_off` / `recurring`; any of the latter two means true. */
export function readOffSession(params: Params): boolean {
  const value = params.string("off_session");
  if (value === undefined) return false;
  if (value === "one_off" || value === "recurring") return true;
  return params.bool("off_session") ?? false;
}

export function readSetupFutureUsage(params: Params): "on_session" | "off_session" | null | undefined {
  if (params.raw.setup_future_usage === "") return null;
  return params.oneOf("setup_future_usage", ["on_session", "off_session"] as const);
}

export function readAmount(params: Params, currency: string, required: boolean): number | undefined {
  const amount = params.int("amount", { required, min: 1, max: 99_999_999 });
  if (amount !== undefined && currency === "usd" && amount < 50) {
    throw invalidRequest("Amount must be at least $0.50 usd", { param: "amount", code: "amount_too_small" });
  }
  return amount;
}

/**
 * Confirms as the API does: remembers `return_url`, insists on one when redirect-capable
 * automatic payment methods are on (as Stripe does), and answers a decline with 402.
 */
export function confirmFromApi(
  ctx: Ctx,
  intent: Stripe.PaymentIntent,
  {
    offSession,
    returnUrl,
    errorOnRequiresAction,
  }: { offSession: boolean; returnUrl?: string; errorOnRequiresAction: boolean },
): void {
  if (returnUrl) ctx.account.returnUrls.set(intent.id, returnUrl);
  const automatic = intent.automatic_payment_methods;
  if (automatic?.enabled && automatic.allow_redirects !== "never" && !ctx.account.returnUrls.has(intent.id)) {
    throw invalidRequest(returnUrlMessage, { param: "return_url" });
  }
  const result = confirmIntent(ctx, intent, { offSession, errorOnRequiresAction });
  settleInvoiceOfIntent(ctx, intent);
  if (result.outcome === "failed") throw result.error;
}

/** `payment_method` (an id or a test token) or `payment_method_data` (a card to create). */
export function readPaymentMethod(ctx: Ctx, params: Params): string | null {
  const reference = params.string("payment_method");
  if (reference) return paymentMethodFromReference(ctx, reference).id;
  const data = params.object("payment_method_data");
  return data ? paymentMethodFromParams(ctx, data).id : null;
}

/**
 * Which payment methods the PaymentIntent allows. Since 2026-08-26 Stripe refuses the old
 * `payment_method_types` parameter; `allowed_payment_method_types` replaces it and excludes
 * `automatic_payment_methods`. Without either, dynamic payment methods (redirects allowed) apply.
 */
export function readPaymentMethodTypes(ctx: Ctx, params: Params) {
  const legacy = params.strings("payment_method_types");
  const version = (ctx.apiVersion ?? defaultApiVersion).slice(0, 10);
  if (legacy !== undefined && version >= "2026-08-26") {
    throw invalidRequest(
      "The `payment_method_types` parameter is no longer supported on this API version. Use `allowed_payment_method_types`, `excluded_payment_method_types` or dynamic payment methods instead.",
      { param: "payment_method_types", code: "payment_method_types_no_longer_supported" },
    );
  }
  const allowed = params.strings("allowed_payment_method_types");
  if (allowed && (params.has("automatic_payment_methods") || params.has("excluded_payment_method_types"))) {
    throw invalidRequest(
      "allowed_payment_method_types cannot be used together with automatic_payment_methods or excluded_payment_method_types.",
      { param: "allowed_payment_method_types" },
    );
  }
  const explicit = allowed ?? legacy;
  if (explicit && !explicit.includes("card")) {
    throw invalidRequest("The Stripe emulator supports only the 'card' payment method type.", {
      param: allowed ? "allowed_payment_method_types" : "payment_method_types",
    });
  }
  const automaticParams = params.object("automatic_payment_methods");
  const automatic = explicit
    ? null
    : {
        enabled: automaticParams?.bool("enabled") ?? true,
        allow_redirects: automaticParams?.oneOf("allow_redirects", ["always", "never"] as const) ?? "always",
      };
  return { automatic, allowed: allowed ?? null };
}
