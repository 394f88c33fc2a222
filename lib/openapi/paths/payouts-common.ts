import type { ResponseConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { pageSchema } from "@/lib/payouts/payout-input";
import { ErrorMessageSchema, UnauthorizedSchema, idempotentReplayHeaders, jsonResponse } from "../common";

// What the payout operations' documents share (payouts-merchant.ts, payouts-user.ts).

export const merchantTag = "Payouts";
export const userTag = "Payout user operations";

export const userParams = z.object({
  user: z.string().meta({
    description: "The payout user's e-mail (any case) or its `pu_` id.",
    example: "ada@example.com",
  }),
});
export const withdrawalParams = z.object({
  withdrawal_id: z.string().meta({ description: "The withdrawal's id (`wd_…`)." }),
});

/** The body field a payout user may carry its hash in, instead of the header (decision 0005). */
export const payoutHashField = {
  payout_hash: z.string().optional().meta({
    description:
      "The payout hash, when it is not sent as the `X-Payout-Hash` header (preferred) or `payout_hash` query parameter.",
  }),
};

export const page = pageSchema;
export const noBody = z.object({}).meta({ description: "No fields: the body may be empty or `{}`." });

export const ok = (description: string, schema: z.ZodType): ResponseConfig => ({
  ...jsonResponse(description, schema),
  headers: idempotentReplayHeaders,
});
export const withdrawalNotFound = jsonResponse(
  "No such withdrawal (`withdrawal_not_found`).",
  ErrorMessageSchema,
);
export const payoutUserNotFound = jsonResponse(
  "No payout user with this e-mail or id (`payout_user_not_found`).",
  ErrorMessageSchema,
);
export const hashUnauthorized = jsonResponse(
  "Missing or invalid payout hash, or an inactive payout user: one body, no cause revealed.",
  UnauthorizedSchema,
);
export const notPendingConflict = jsonResponse(
  "The withdrawal is already settled to another outcome (`withdrawal_not_pending`), or the Idempotency-Key was used with another request (`idempotency_key_reused`).",
  ErrorMessageSchema,
);
export const idempotencyConflict = jsonResponse(
  "The Idempotency-Key was used with another request (`idempotency_key_reused`).",
  ErrorMessageSchema,
);
