/** The `error` object of a Stripe error response. Extra keys (charge, payment_intent ...) ride along. */
export interface StripeErrorBody {
  type: "invalid_request_error" | "card_error" | "api_error" | "idempotency_error";
  message: string;
  code?: string;
  decline_code?: string;
  param?: string;
  doc_url?: string;
  [extra: string]: unknown;
}

/** A failure answered in Stripe's shape: `{ error: {...} }` with Stripe's status code. */
export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: StripeErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(body.message);
  }
}

export function invalidRequest(
  message: string,
  { param, code, status = 400 }: { param?: string; code?: string; status?: number } = {},
): StripeApiError {
  return new StripeApiError(status, {
    type: "invalid_request_error",
    message,
    ...(code ? { code, doc_url: `https://stripe.com/docs/error-codes/${code.replace(/_/g, "-")}` } : {}),
    ...(param ? { param } : {}),
  });
}

export function missingParam(param: string): StripeApiError {
  return invalidRequest(`Missing required param: ${param}.`, { param, code: "parameter_missing" });
}

/** 404 for an unknown id in the path (`param` "id") or referenced by a body parameter. */
export function resourceMissing(noun: string, id: string, param = "id"): StripeApiError {
  return invalidRequest(`No such ${noun}: '${id}'`, { param, code: "resource_missing", status: 404 });
}

export function unsupported(what: string): StripeApiError {
  return invalidRequest(`The Stripe emulator does not support ${what}.`);
}

/** 402 card_error, carrying the objects Stripe attaches (charge id, payment_intent, payment_method). */
export function cardError(fields: {
  code: string;
  message: string;
  decline_code?: string;
  param?: string;
  charge?: string;
  payment_intent?: unknown;
  payment_method?: unknown;
}): StripeApiError {
  const { code, message, decline_code, param, ...objects } = fields;
  return new StripeApiError(402, {
    type: "card_error",
    code,
    message,
    ...(decline_code ? { decline_code } : {}),
    ...(param ? { param } : {}),
    doc_url: `https://stripe.com/docs/error-codes/${code.replace(/_/g, "-")}`,
    ...objects,
  });
}

export function apiError(
  status: number,
  message: string,
  headers: Record<string, string> = {},
): StripeApiError {
  return new StripeApiError(status, { type: "api_error", message }, headers);
}

/**
 * Stripe links every error to its request log. The emulator keeps no request log, so it uses
 * Stripe's own address format (clients treat it as an opaque link) with the request's id.
 */
export function withRequestLog(body: StripeErrorBody, requestId: string): StripeErrorBody {
  return { ...body, request_log_url: `https://dashboard.stripe.com/test/logs/${requestId}` };
}
