import {
  BadRequestError,
  PayloadTooLargeError,
  ConflictError,
  DomainError,
  ForbiddenError,
  InsufficientFundsError,
  InsufficientPayoutBalanceError,
  InvalidProviderSignatureError,
  IpMismatchError,
  NoSubscriptionMethodError,
  NotFoundError,
  PaymentMethodNotFoundError,
  PaymentNotFoundError,
  PayoutsDisabledError,
  ProviderError,
  ProviderUnavailableError,
  ClockWorkPendingError,
  DatabaseUnavailableError,
  PaymentOutcomeUnknownError,
  RateLimitedError,
  SessionNotPayableError,
  SubscriptionRequiresSecretKeyError,
  SubscriptionNotFoundError,
  SubscriptionSetupIncompleteError,
  SubscriptionUpdateFailedError,
  UnauthorizedError,
  ValidationError,
} from "@/lib/errors";
import { JsonResponse } from "./json-response";

/** The API's JSON answer: its text is sent as is by the server's own writer (server/api-fast-path.ts). */
export function json(status: number, body: unknown, headers?: HeadersInit): Response {
  const response = new JsonResponse(JSON.stringify(body), { status, headers });
  response.headers.set("content-type", "application/json; charset=utf-8");
  if (!response.headers.has("cache-control")) response.headers.set("cache-control", "no-store");
  return response;
}

/** The body of a Response json() made, while nobody has read it; else undefined. */
export function unreadJsonText(response: Response): string | undefined {
  return response instanceof JsonResponse ? response.unreadText() : undefined;
}

export const internalErrorBody = { error: "Internal server error" } as const;

/** The interface's exact status and body for each domain failure; null for unknown errors. */
export function errorResponse(error: unknown): Response | null {
  if (!(error instanceof DomainError)) return null;
  if (error instanceof ValidationError) return json(400, error.fields);
  if (error instanceof UnauthorizedError) return json(401, { error: "Unauthorized" });
  if (error instanceof PaymentNotFoundError) return json(404, { error: "Payment not found" });
  if (error instanceof PaymentMethodNotFoundError) return json(400, { error: "Payment method not found" });
  if (error instanceof SubscriptionRequiresSecretKeyError)
    return json(403, { error: "subscription_requires_secret_key" });
  if (error instanceof NoSubscriptionMethodError)
    return json(400, { error: "no_subscription_method", message: error.message });
  if (error instanceof SubscriptionSetupIncompleteError)
    return json(400, { error: error.code, missing_events: error.missingEvents });
  if (error instanceof SubscriptionNotFoundError)
    return json(404, { error: error.code, message: error.message });
  if (error instanceof SubscriptionUpdateFailedError)
    return json({ conflict: 409, provider_refused: 502, provider_unavailable: 503 }[error.reason], {
      error: error.code,
      message: error.message,
    });
  if (error instanceof RateLimitedError)
    return json(
      429,
      {
        error: "rate_limit_exceeded",
        message: error.message,
        type: error.limitedKey,
        retry_after: error.retryAfterSeconds,
      },
      { "retry-after": String(error.retryAfterSeconds) },
    );
  if (error instanceof InsufficientPayoutBalanceError)
    return json(400, { error: "Insufficient payout balance" });
  if (error instanceof PayoutsDisabledError)
    return json(403, { error: "Payouts are currently disabled. Please enable them in Settings." });
  if (error instanceof IpMismatchError) return json(403, { error: "ip_mismatch", message: error.message });
  if (error instanceof SessionNotPayableError)
    return json(409, { error: error.code, message: error.message });
  if (error instanceof InvalidProviderSignatureError)
    return json(400, { error: error.code, message: error.message });
  if (error instanceof ProviderUnavailableError)
    return json(503, { error: error.code, message: error.message });
  if (error instanceof DatabaseUnavailableError || error instanceof PaymentOutcomeUnknownError)
    return json(
      503,
      { error: error.code, message: error.message },
      { "retry-after": String(error.retryAfterSeconds) },
    );
  if (error instanceof ClockWorkPendingError)
    return json(503, { error: error.code, message: error.message }, { "retry-after": "5" });
  if (error instanceof ProviderError) return json(502, { error: error.code, message: error.message });
  if (error instanceof InsufficientFundsError)
    return json(400, { error: error.code, message: error.message });
  if (error instanceof PayloadTooLargeError) return json(413, { error: error.code, message: error.message });
  if (error instanceof BadRequestError) return json(400, { error: error.code, message: error.message });
  if (error instanceof ForbiddenError) return json(403, { error: error.code, message: error.message });
  if (error instanceof NotFoundError) return json(404, { error: error.code, message: error.message });
  if (error instanceof ConflictError)
    return json(409, { ...error.details, error: error.code, message: error.message });
  return null;
}
