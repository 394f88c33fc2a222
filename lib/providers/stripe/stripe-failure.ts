import Stripe from "stripe";
import { ProviderError, ProviderUnavailableError } from "@/lib/errors";

/**
 * A failed Stripe call as a domain error: unreachable (network, timeouts, 5xx after the SDK's
 * retries) is 503 and worth retrying; anything else Stripe refused is 502 with its message.
 * Errors that are not Stripe's come back unchanged.
 */
export function stripeFailure(error: unknown, doing: string): unknown {
  if (!(error instanceof Stripe.errors.StripeError)) return error;
  if (error instanceof Stripe.errors.StripeConnectionError || (error.statusCode ?? 0) >= 500)
    return new ProviderUnavailableError(`Stripe could not be reached while ${doing}: ${error.message}`);
  return new ProviderError(`Stripe refused ${doing}: ${error.message}`, error.type);
}

export function isStripePermissionError(error: unknown): boolean {
  return error instanceof Stripe.errors.StripePermissionError;
}
