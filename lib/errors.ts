/**
 * Domain failures. Each carries what the interface needs to describe it; only lib/http turns
 * them into status codes and exact bodies.
 */
export abstract class DomainError extends Error {
  abstract readonly code: string;
}

/** 400: each field name mapped to its messages. */
export class ValidationError extends DomainError {
  readonly code = "validation_failed";
  constructor(readonly fields: Record<string, string[]>) {
    super(`Invalid fields: ${Object.keys(fields).join(", ")}`);
  }
  static field(field: string, message: string): ValidationError {
    return new ValidationError({ [field]: [message] });
  }
}

/** 400 for a request that is not even a JSON object, or other malformed input. */
export class BadRequestError extends DomainError {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** 413: a request body over its route's limit (the server cuts it there, server/body-limit.ts). */
export class PayloadTooLargeError extends DomainError {
  readonly code = "request_too_large";
}

/** 401, whatever the cause; the cause is for logs only. */
export class UnauthorizedError extends DomainError {
  readonly code = "unauthorized";
}

export class PaymentNotFoundError extends DomainError {
  readonly code = "payment_not_found";
}

export class PaymentMethodNotFoundError extends DomainError {
  readonly code = "payment_method_not_found";
}

export class SubscriptionRequiresSecretKeyError extends DomainError {
  readonly code = "subscription_requires_secret_key";
}

export class NoSubscriptionMethodError extends DomainError {
  readonly code = "no_subscription_method";
}

/**
 * 400 `{error: "subscription_setup_incomplete", missing_events}`: the business's endpoint at the
 * card-billing provider is missing, disabled, or lacks events a subscription needs.
 */
export class SubscriptionSetupIncompleteError extends DomainError {
  readonly code = "subscription_setup_incomplete";
  constructor(
    readonly missingEvents: string[],
    message = `Kassa's webhook endpoint at Stripe is missing or lacks: ${missingEvents.join(", ")}`,
  ) {
    super(message);
  }
}

export class RateLimitedError extends DomainError {
  readonly code = "rate_limit_exceeded";
  constructor(
    readonly limitedKey: "ip" | "api_key",
    readonly retryAfterSeconds: number,
  ) {
    super(`Too many requests; retry in ${retryAfterSeconds} s`);
  }
}

/** 409 for a request that conflicts with the current state (e.g. an idempotency key reused). */
export class ConflictError extends DomainError {
  constructor(
    readonly code: string,
    message: string,
    /** More fields of the body beside `error` and `message` (e.g. the resource as it now is). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** 403 with `{error, message}` for actions not allowed to this caller. */
export class ForbiddenError extends DomainError {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** 404 with `{error, message}` for resources without an interface-defined body. */
export class NotFoundError extends DomainError {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A ledger debit that would take an account below zero. Raised by lib/ledger/post-transaction;
 * domains translate it into their own error (a 400 unless they do).
 */
export class InsufficientFundsError extends DomainError {
  readonly code = "insufficient_funds";
  constructor(
    readonly accountKind: string,
    readonly ownerId: string,
    message = "Insufficient funds",
  ) {
    super(message);
  }
}

/** 400 `{error: "Insufficient payout balance"}` of POST /payout/create. */
export class InsufficientPayoutBalanceError extends DomainError {
  readonly code = "insufficient_payout_balance";
}

/** 403 `{error: "Payouts are currently disabled. Please enable them in Settings."}`. */
export class PayoutsDisabledError extends DomainError {
  readonly code = "payouts_disabled";
}

/** 403 `{error: "ip_mismatch", message}`: the session was created for another IP than the payer's. */
export class IpMismatchError extends DomainError {
  readonly code = "ip_mismatch";
  constructor(message = "This payment must be completed from the IP address the session was created for") {
    super(message);
  }
}

/** Why a session cannot be paid now. */
export type NotPayableReason = "already_paid" | "expired" | "in_review" | "processing" | "declined";

/** 409 `{error: "session_not_payable", message}`: paid, expired, held for review, or an attempt in flight. */
export class SessionNotPayableError extends DomainError {
  readonly code = "session_not_payable";
  constructor(
    readonly reason: NotPayableReason,
    message: string,
  ) {
    super(message);
  }
}

/** 400 `{error: "invalid_signature", message}`: an inbound provider event that does not verify. */
export class InvalidProviderSignatureError extends DomainError {
  readonly code = "invalid_signature";
}

/** 503 `{error: "provider_unavailable", message}`: the provider could not be reached; safe to retry. */
export class ProviderUnavailableError extends DomainError {
  readonly code = "provider_unavailable";
}

/**
 * 503 `{error: "clock_work_pending", message}`: a sandbox clock advance moved the clock, but work
 * due by the new time was still running at the advance's bound; the message says what.
 */
export class ClockWorkPendingError extends DomainError {
  readonly code = "clock_work_pending";
}

/** 502 `{error: "provider_error", message}`: the payment provider refused or failed a call Kassa needed. */
export class ProviderError extends DomainError {
  readonly code = "provider_error";
  constructor(
    message: string,
    /** The provider's own error type or code (`card_error`, `api_error`, `provider_unavailable`, ...). */
    readonly errorType = "provider_error",
  ) {
    super(message);
  }
}

/** 404 `{error: "subscription_not_found", message}`: unknown, or another business's. */
export class SubscriptionNotFoundError extends DomainError {
  readonly code = "subscription_not_found";
  constructor(message = "No such subscription") {
    super(message);
  }
}

/**
 * `{error: "subscription_update_failed", message}`: 409 when the subscription is already canceled or
 * changed during the request (retry), 502 when the provider refused, 503 when it could not be
 * reached (safe to retry).
 */
export class SubscriptionUpdateFailedError extends DomainError {
  readonly code = "subscription_update_failed";
  constructor(
    readonly reason: "conflict" | "provider_refused" | "provider_unavailable",
    message: string,
  ) {
    super(message);
  }
}

/**
 * 503 with `Retry-After` (decision 0065): the database could not serve the request (connection
 * lost, server restarting, statement past its bound, read-only). `{error: "service_unavailable",
 * message}`; on a full disk `{error: "insufficient_storage", message}` (reads are still served).
 */
export class DatabaseUnavailableError extends DomainError {
  readonly code: "service_unavailable" | "insufficient_storage";
  constructor(
    readonly fault: "unavailable" | "timeout" | "read_only" | "disk_full",
    readonly retryAfterSeconds = 5,
    options?: { cause?: unknown },
  ) {
    super(
      fault === "disk_full"
        ? "Kassa's storage is full: changes are refused until space is freed. Reading still works; try again later."
        : "Kassa's database is unavailable for a moment. Nothing was changed by this request unless it says otherwise; try again.",
      options,
    );
    this.code = fault === "disk_full" ? "insufficient_storage" : "service_unavailable";
  }
}

/**
 * 503 `{error: "payment_outcome_unknown", message}` with `Retry-After` (decision 0066): the provider
 * was asked to charge but the answer could not be recorded. Never "failed": the money may have
 * moved. The same request with the same Idempotency-Key answers the real outcome once known.
 */
export class PaymentOutcomeUnknownError extends DomainError {
  readonly code = "payment_outcome_unknown";
  constructor(
    readonly attemptId: string,
    readonly retryAfterSeconds = 10,
    options?: { cause?: unknown },
  ) {
    super(
      "The payment's outcome is not known yet: do not pay again. Retry this request with the same Idempotency-Key, or read the payment, in a few seconds.",
      options,
    );
  }
}
