import type { OpenAPIRegistry, ResponseConfig, RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";

/**
 * What every area of the OpenAPI document shares: the interface's error bodies (exactly as
 * lib/http/respond.ts writes them), the security schemes, and helpers to describe responses.
 */

// ---- Error bodies -------------------------------------------------------------------------------

/** 400: each field name mapped to its messages (lib/errors ValidationError). */
export const FieldErrorsSchema = z.record(z.string(), z.array(z.string()).min(1)).meta({
  id: "FieldErrors",
  description: "Validation failure: each field name mapped to a non-empty array of messages.",
  example: { amount: ["amount must be at least 100"] },
});

/** `{error, message}`: the body of every named refusal without an interface-fixed text. */
export const ErrorMessageSchema = z
  .strictObject({
    error: z.string().meta({ description: "Machine-readable code, e.g. `invalid_json`, `ip_mismatch`." }),
    message: z.string().meta({ description: "Human-readable explanation." }),
  })
  .meta({
    id: "ErrorMessage",
    example: { error: "invalid_json", message: "Request body must be valid JSON" },
  });

/** `{error: "<fixed text>"}`: the interface's bodies that carry one fixed string and nothing else. */
const fixedError = (id: string, text: string, description: string) =>
  z.strictObject({ error: z.literal(text) }).meta({ id, description });

export const UnauthorizedSchema = fixedError(
  "Unauthorized",
  "Unauthorized",
  "Missing or invalid key, wrong key type, missing or invalid payout hash, inactive payout user: one body, no cause revealed.",
);
export const PaymentNotFoundSchema = fixedError(
  "PaymentNotFound",
  "Payment not found",
  "Unknown session id, or another business's.",
);
export const PaymentMethodNotFoundSchema = fixedError(
  "PaymentMethodNotFound",
  "Payment method not found",
  "paymentMethodId unknown or not enabled for the business.",
);
export const SubscriptionRequiresSecretKeySchema = fixedError(
  "SubscriptionRequiresSecretKey",
  "subscription_requires_secret_key",
  "A subscription session was created with a public key.",
);
export const InsufficientPayoutBalanceSchema = fixedError(
  "InsufficientPayoutBalance",
  "Insufficient payout balance",
  "The business's payout balance is below the amount.",
);
export const PayoutsDisabledSchema = fixedError(
  "PayoutsDisabled",
  "Payouts are currently disabled. Please enable them in Settings.",
  "Payouts are disabled for the business.",
);
export const InternalErrorSchema = fixedError(
  "InternalError",
  "Internal server error",
  "Unexpected failure.",
);

export const SubscriptionSetupIncompleteSchema = z
  .strictObject({
    error: z.literal("subscription_setup_incomplete"),
    missing_events: z.array(z.string()).meta({ description: "Provider events the endpoint lacks." }),
  })
  .meta({
    id: "SubscriptionSetupIncomplete",
    description:
      "The business's endpoint at the card-billing provider is missing, disabled, or lacks events.",
  });

export const RateLimitedSchema = z
  .strictObject({
    error: z.literal("rate_limit_exceeded"),
    message: z.string(),
    type: z.enum(["ip", "api_key"]).meta({ description: "The limited key." }),
    retry_after: z
      .int()
      .min(0)
      .meta({ description: "Seconds to wait; also sent as the Retry-After header." }),
  })
  .meta({ id: "RateLimited" });

// ---- Security schemes -----------------------------------------------------------------------------

const securitySchemes = {
  secretKey: {
    type: "http",
    scheme: "bearer",
    description:
      "Secret API key (`sk_test_…` / `sk_live_…`), server-side only: `Authorization: Bearer sk_…`.",
  },
  publicKey: {
    type: "http",
    scheme: "bearer",
    description:
      "Public API key (`pk_test_…` / `pk_live_…`), safe in a browser: `Authorization: Bearer pk_…`. Accepted by POST /session (one-time payments) and GET /payments/methods only.",
  },
  payoutHash: {
    type: "apiKey",
    in: "header",
    name: "X-Payout-Hash",
    description:
      "A payout user's hash (preferred form). The same hash is also accepted as the body field `payout_hash` of a POST, or as the query parameter `payout_hash` (legacy).",
  },
  payoutHashQuery: {
    type: "apiKey",
    in: "query",
    name: "payout_hash",
    description: "A payout user's hash as a query parameter (legacy; prefer the X-Payout-Hash header).",
  },
} as const;

/** Security requirements to put on an operation (`security: security.secret`). */
export const security: Record<
  "secret" | "secretOrPublic" | "payoutHash" | "none",
  NonNullable<RouteConfig["security"]>
> = {
  secret: [{ secretKey: [] }],
  secretOrPublic: [{ secretKey: [] }, { publicKey: [] }],
  payoutHash: [{ payoutHash: [] }, { payoutHashQuery: [] }],
  /** No credential (the signature or the page's own token is the credential, or nothing is needed). */
  none: [],
};

// ---- Response helpers -----------------------------------------------------------------------------

/** A JSON response with one schema. */
export function jsonResponse(
  description: string,
  schema: z.ZodType,
  headers?: ResponseConfig["headers"],
): ResponseConfig {
  return { description, content: { "application/json": { schema } }, ...(headers ? { headers } : {}) };
}

/** A JSON response whose body is one of several schemas. */
export function jsonResponseOneOf(
  description: string,
  schemas: [z.ZodType, z.ZodType, ...z.ZodType[]],
): ResponseConfig {
  return jsonResponse(description, z.union(schemas));
}

/** The error responses, by status, as respond.ts writes them; routes pick the ones they can answer. */
export const errorResponses = {
  /** A JSON body that is invalid field by field, or no JSON object at all (or too large). */
  badRequest: jsonResponseOneOf(
    "Invalid request: a field map, or `{error, message}` for a body that is not a JSON object.",
    [FieldErrorsSchema, ErrorMessageSchema],
  ),
  /** Query or path parameters only: no body to be malformed. */
  invalidFields: jsonResponse(
    "Invalid parameters: each field name mapped to its messages.",
    FieldErrorsSchema,
  ),
  unauthorized: jsonResponse("Missing or invalid credential, or the wrong key type.", UnauthorizedSchema),
  forbidden: jsonResponse("Not allowed to this caller.", ErrorMessageSchema),
  notFound: jsonResponse("No such resource for this business.", ErrorMessageSchema),
  conflict: jsonResponse(
    "Conflicts with the current state (or an Idempotency-Key reused with another body).",
    ErrorMessageSchema,
  ),
  rateLimited: jsonResponse("Too many requests.", RateLimitedSchema, {
    "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "integer" } },
  }),
  internal: jsonResponse("Unexpected failure.", InternalErrorSchema),
  payloadTooLarge: jsonResponse(
    "The body is over this endpoint's limit (`request_too_large`; 256 KB, 512 KB for provider events): cut as it arrives, and the connection closed.",
    ErrorMessageSchema,
  ),
  providerError: jsonResponse(
    "The payment provider refused or failed a call Kassa needed.",
    ErrorMessageSchema,
  ),
  providerUnavailable: jsonResponse(
    "The payment provider could not be reached; safe to retry. Also answered when Kassa's database is unavailable for a moment (see `databaseUnavailable`).",
    ErrorMessageSchema,
  ),
  databaseUnavailable: jsonResponse(
    "Kassa's database is unavailable for a moment (`service_unavailable`), or its disk is full (`insufficient_storage`); a pay whose outcome is not known yet answers `payment_outcome_unknown`. Nothing was changed that a retry could repeat: retry after `Retry-After` seconds, with the same `Idempotency-Key`.",
    ErrorMessageSchema,
    { "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "integer" } } },
  ),
} satisfies Record<string, ResponseConfig>;

/** Registers what every area refers to: the error bodies and the security schemes. */
export function registerCommon(registry: OpenAPIRegistry): void {
  for (const [name, scheme] of Object.entries(securitySchemes))
    registry.registerComponent("securitySchemes", name, scheme);
}

// ---- Shared request parts -------------------------------------------------------------------------

/** The Idempotency-Key request header of the POST endpoints that honour it (decision 0022). */
export const idempotencyKeyHeaders = z.object({
  "Idempotency-Key": z
    .string()
    .min(1)
    .max(255)
    .regex(/^[\x21-\x7e]+$/)
    .optional()
    .meta({
      description:
        "Retry safely: the same key with the same body answers the first response again (with `Idempotent-Replayed: true`) and creates nothing twice; the same key with another body is a 409. 1 to 255 visible ASCII characters.",
    }),
});

/** Response headers of an operation that honours Idempotency-Key. */
export const idempotentReplayHeaders: ResponseConfig["headers"] = {
  "Idempotent-Replayed": {
    description: "`true` when this is the stored answer of an earlier request with the same Idempotency-Key.",
    schema: { type: "string", enum: ["true"] },
  },
};

/** A JSON object request body (operations whose body is optional say so with `required: false`). */
export function jsonBody(schema: z.ZodType, required = true) {
  return { required, content: { "application/json": { schema } } };
}
