import Stripe from "stripe";
import { ProviderError, ProviderUnavailableError } from "@/lib/errors";

/**
 * A failed Stripe call as a domain error: unreachable (network, timeouts, 5xx after the SDK's
 * retries) is 503 and worth retrying; anything else Stripe refused is 502 with its message.
 */
export function stripeFailure(error: unknown, doing: string): ProviderUnavailableError | ProviderError {
  const message = error instanceof Error ? error.message : String(error);
  if (
    error instanceof Stripe.errors.StripeConnectionError ||
    (error instanceof Stripe.errors.StripeError && (error.statusCode ?? 0) >= 500) ||
    !(error instanceof Stripe.errors.StripeError)
  )
    return new ProviderUnavailableError(`Stripe could not be reached while ${doing}: ${message}`);
  return new ProviderError(`Stripe refused ${doing}: ${message}`, error.type);
}

export function isStripePermissionError(error: unknown): boolean {
  return error instanceof Stripe.errors.StripePermissionError;
}
