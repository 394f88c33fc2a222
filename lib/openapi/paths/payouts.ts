import type { OpenAPIRegistry, ResponseConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import {
  cancelWithdrawalActionSchema,
  createPayoutSchema,
  merchantWithdrawalListQuerySchema,
  pageSchema,
  payoutUserListQuerySchema,
  settleSchema,
  withdrawalListQuerySchema,
  withdrawalSchema,
} from "@/lib/payouts/payout-input";
import {
  PayoutHashSchema,
  PayoutHistorySchema,
  PayoutUserListSchema,
  PayoutUserSchema,
  WithdrawalListSchema,
  WithdrawalSchema,
} from "@/lib/payouts/payout-schemas";
import {
  ErrorMessageSchema,
  FieldErrorsSchema,
  InsufficientPayoutBalanceSchema,
  PayoutsDisabledSchema,
  UnauthorizedSchema,
  errorResponses,
  idempotencyKeyHeaders,
  idempotentReplayHeaders,
  jsonBody,
  jsonResponse,
  security,
} from "../common";

const merchantTag = "Payouts";
const userTag = "Payout user operations";

const userParams = z.object({
  user: z.string().meta({
    description: "The payout user's e-mail (any case) or its `pu_` id.",
    example: "ada@example.com",
  }),
});
const withdrawalParams = z.object({
  withdrawal_id: z.string().meta({ description: "The withdrawal's id (`wd_…`)." }),
});

/** The body field a payout user may carry its hash in, instead of the header (decision 0005). */
const payoutHashField = {
  payout_hash: z.string().optional().meta({
    description:
      "The payout hash, when it is not sent as the `X-Payout-Hash` header (preferred) or `payout_hash` query parameter.",
  }),
};

const page = pageSchema;
const noBody = z.object({}).meta({ description: "No fields: the body may be empty or `{}`." });

const ok = (description: string, schema: z.ZodType): ResponseConfig => ({
  ...jsonResponse(description, schema),
  headers: idempotentReplayHeaders,
});
const withdrawalNotFound = jsonResponse("No such withdrawal (`withdrawal_not_found`).", ErrorMessageSchema);
const payoutUserNotFound = jsonResponse(
  "No payout user with this e-mail or id (`payout_user_not_found`).",
  ErrorMessageSchema,
);
const hashUnauthorized = jsonResponse(
  "Missing or invalid payout hash, or an inactive payout user: one body, no cause revealed.",
  UnauthorizedSchema,
);
const notPendingConflict = jsonResponse(
  "The withdrawal is already settled to another outcome (`withdrawal_not_pending`), or the Idempotency-Key was used with another request (`idempotency_key_reused`).",
  ErrorMessageSchema,
);
const idempotencyConflict = jsonResponse(
  "The Idempotency-Key was used with another request (`idempotency_key_reused`).",
  ErrorMessageSchema,
);

/** The merchant's side (secret key): allocate funds, manage payout users, settle withdrawals. */
function registerMerchantPayouts(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "post",
    path: "/payout/create",
    tags: [merchantTag],
    operationId: "createPayout",
    summary: "Allocate funds to a payout user",
    description:
      "In one transaction: debits the business's payout balance (failing at once if it is short), creates the payout user of this e-mail (case-insensitive) or adds to its balance, and records a history entry. Not idempotent by itself: each call allocates again, unless an `Idempotency-Key` is sent. The hash answered is the same on every allocation to that user.",
    security: security.secret,
    request: {
      headers: idempotencyKeyHeaders,
      body: jsonBody(createPayoutSchema.meta({ id: "PayoutCreateInput" })),
    },
    responses: {
      201: ok("The payout user's hash.", PayoutHashSchema),
      400: jsonResponse(
        "Invalid e-mail or amount; a body that is not a JSON object; or too little payout balance.",
        z.union([FieldErrorsSchema, InsufficientPayoutBalanceSchema, ErrorMessageSchema]),
      ),
      401: errorResponses.unauthorized,
      403: jsonResponse("Payouts are disabled for the business.", PayoutsDisabledSchema),
      409: jsonResponse(
        "The payout user is deactivated (`payout_user_inactive`), or the Idempotency-Key was used with another request (`idempotency_key_reused`).",
        ErrorMessageSchema,
      ),
    },
  });

  registry.registerPath({
    method: "get",
    path: "/payout/users",
    tags: [merchantTag],
    operationId: "listPayoutUsers",
    summary: "List payout users",
    description: "The business's payout users with their balances, newest first.",
    security: security.secret,
    request: { query: payoutUserListQuerySchema },
    responses: {
      200: jsonResponse("A page of payout users.", PayoutUserListSchema),
      400: errorResponses.invalidFields,
      401: errorResponses.unauthorized,
    },
  });

  registry.registerPath({
    method: "get",
    path: "/payout/users/{user}",
    tags: [merchantTag],
    operationId: "getPayoutUser",
    summary: "Get a payout user",
    security: security.secret,
    request: { params: userParams },
    responses: {
      200: jsonResponse("The payout user.", PayoutUserSchema),
      401: errorResponses.unauthorized,
      404: payoutUserNotFound,
    },
  });

  registry.registerPath({
    method: "get",
    path: "/payout/users/{user}/history",
    tags: [merchantTag],
    operationId: "listPayoutUserHistory",
    summary: "A payout user's history",
    description:
      "Allocations (+), withdrawal requests (-) and funds returned by rejected or canceled withdrawals (+), newest first, each with the balance right after it.",
    security: security.secret,
    request: { params: userParams, query: page },
    responses: {
      200: jsonResponse("A page of history entries.", PayoutHistorySchema),
      400: errorResponses.invalidFields,
      401: errorResponses.unauthorized,
      404: payoutUserNotFound,
    },
  });

  const userActions = [
    {
      action: "deactivate",
      operationId: "deactivatePayoutUser",
      summary: "Deactivate a payout user",
      description:
        "Its hash then answers 401 everywhere and no funds can be allocated to it; its balance and pending withdrawals stay. Repeating is a no-op.",
    },
    {
      action: "reactivate",
      operationId: "reactivatePayoutUser",
      summary: "Reactivate a payout user",
      description: "The same hash works again. Repeating is a no-op.",
    },
  ] as const;
  for (const { action, ...about } of userActions)
    registry.registerPath({
      method: "post",
      path: `/payout/users/{user}/${action}`,
      tags: [merchantTag],
      ...about,
      security: security.secret,
      request: { params: userParams, headers: idempotencyKeyHeaders, body: jsonBody(noBody, false) },
      responses: {
        200: ok("The payout user.", PayoutUserSchema),
        400: errorResponses.badRequest,
        401: errorResponses.unauthorized,
        404: payoutUserNotFound,
        409: idempotencyConflict,
      },
    });

  registry.registerPath({
    method: "post",
    path: "/payout/users/{user}/rotate-hash",
    tags: [merchantTag],
    operationId: "rotatePayoutHash",
    summary: "Replace a payout user's hash",
    description: "After a leak: the new hash is answered, the old one answers 401 from now on.",
    security: security.secret,
    request: { params: userParams, headers: idempotencyKeyHeaders, body: jsonBody(noBody, false) },
    responses: {
      200: ok("The new hash.", PayoutHashSchema),
      400: errorResponses.badRequest,
      401: errorResponses.unauthorized,
      404: payoutUserNotFound,
      409: idempotencyConflict,
    },
  });

  registry.registerPath({
    method: "get",
    path: "/payout/withdrawals",
    tags: [merchantTag],
    operationId: "listWithdrawals",
    summary: "List withdrawals",
    description: "The business's withdrawals (or one payout user's), newest first, optionally by status.",
    security: security.secret,
    request: { query: merchantWithdrawalListQuerySchema },
    responses: {
      200: jsonResponse("A page of withdrawals.", WithdrawalListSchema),
      400: errorResponses.invalidFields,
      401: errorResponses.unauthorized,
      404: payoutUserNotFound,
    },
  });

  registry.registerPath({
    method: "get",
    path: "/payout/withdrawals/{withdrawal_id}",
    tags: [merchantTag],
    operationId: "getWithdrawal",
    summary: "Get a withdrawal",
    security: security.secret,
    request: { params: withdrawalParams },
    responses: {
      200: jsonResponse("The withdrawal.", WithdrawalSchema),
      401: errorResponses.unauthorized,
      404: withdrawalNotFound,
    },
  });

  const settlements = [
    {
      action: "complete",
      operationId: "completeWithdrawal",
      summary: "Mark a withdrawal paid out",
      description:
        "The merchant has paid the held funds out (optionally with its `settlement_reference`). Completing a completed withdrawal again answers it unchanged.",
    },
    {
      action: "reject",
      operationId: "rejectWithdrawal",
      summary: "Reject a withdrawal",
      description:
        "The funds go back to the payout user's balance (optionally with a `reason`). Rejecting a rejected withdrawal again answers it unchanged.",
    },
  ] as const;
  for (const { action, ...about } of settlements)
    registry.registerPath({
      method: "post",
      path: `/payout/withdrawals/{withdrawal_id}/${action}`,
      tags: [merchantTag],
      ...about,
      security: security.secret,
      request: {
        params: withdrawalParams,
        headers: idempotencyKeyHeaders,
        body: jsonBody(settleSchema.meta({ id: "WithdrawalSettleInput" }), false),
      },
      responses: {
        200: ok("The settled withdrawal.", WithdrawalSchema),
        400: errorResponses.badRequest,
        401: errorResponses.unauthorized,
        404: withdrawalNotFound,
        409: notPendingConflict,
      },
    });
}

/** The payout user's own side: hash authentication. */
function registerPayoutUserOperations(registry: OpenAPIRegistry): void {
  const hashSecurity = security.payoutHash;
  const WithdrawalInput = withdrawalSchema.extend(payoutHashField).meta({ id: "WithdrawalInput" });

  registry.registerPath({
    method: "get",
    path: "/payout/operations",
    tags: [userTag],
    operationId: "getPayoutBalance",
    summary: "The payout user's balance and profile",
    security: hashSecurity,
    responses: {
      200: jsonResponse("The payout user.", PayoutUserSchema),
      401: hashUnauthorized,
    },
  });

  const OperationsInput = z
    .discriminatedUnion("action", [
      z
        .object({ action: z.literal("balance"), ...payoutHashField })
        .meta({ description: "`balance`: the payout user, with its balances." }),
      page
        .extend({ action: z.literal("history"), ...payoutHashField })
        .meta({ description: "`history`: a page of its history." }),
      withdrawalSchema
        .extend({ action: z.literal("withdraw"), ...payoutHashField })
        .meta({ description: "`withdraw`: request a withdrawal (201)." }),
      settleSchema
        .pick({ reason: true })
        .extend({
          action: z.literal("cancel_withdrawal"),
          ...cancelWithdrawalActionSchema.shape,
          ...payoutHashField,
        })
        .meta({ description: "`cancel_withdrawal`: cancel a pending withdrawal." }),
    ])
    .meta({ id: "PayoutOperationInput" });

  registry.registerPath({
    method: "post",
    path: "/payout/operations",
    tags: [userTag],
    operationId: "postPayoutOperation",
    summary: "Every payout user operation on one path, chosen by `action`",
    description:
      "For clients that can only POST here with the hash in the body; the resource paths are preferred. `balance` answers the payout user, `history` a page of its history, `withdraw` (201) and `cancel_withdrawal` the withdrawal. `Idempotency-Key` is honoured by `withdraw` and `cancel_withdrawal`.",
    security: hashSecurity,
    request: { headers: idempotencyKeyHeaders, body: jsonBody(OperationsInput) },
    responses: {
      200: ok(
        "`balance`: the payout user; `history`: a page of history entries; `cancel_withdrawal`: the canceled withdrawal.",
        z.union([PayoutUserSchema, PayoutHistorySchema, WithdrawalSchema]),
      ),
      201: ok("`withdraw`: the withdrawal requested, its amount held.", WithdrawalSchema),
      400: jsonResponse(
        "Invalid fields (or `action`); a body that is not a JSON object; or more than the available balance (`insufficient_balance`).",
        z.union([FieldErrorsSchema, ErrorMessageSchema]),
      ),
      401: hashUnauthorized,
      404: withdrawalNotFound,
      409: notPendingConflict,
    },
  });

  registry.registerPath({
    method: "get",
    path: "/payout/operations/history",
    tags: [userTag],
    operationId: "listPayoutHistory",
    summary: "The payout user's history",
    security: hashSecurity,
    request: { query: page },
    responses: {
      200: jsonResponse("A page of history entries, newest first.", PayoutHistorySchema),
      400: errorResponses.invalidFields,
      401: hashUnauthorized,
    },
  });

  registry.registerPath({
    method: "get",
    path: "/payout/operations/withdrawals",
    tags: [userTag],
    operationId: "listOwnWithdrawals",
    summary: "The payout user's withdrawals",
    security: hashSecurity,
    request: { query: withdrawalListQuerySchema },
    responses: {
      200: jsonResponse("A page of withdrawals, newest first.", WithdrawalListSchema),
      400: errorResponses.invalidFields,
      401: hashUnauthorized,
    },
  });

  registry.registerPath({
    method: "post",
    path: "/payout/operations/withdrawals",
    tags: [userTag],
    operationId: "requestWithdrawal",
    summary: "Request a withdrawal",
    description:
      "Moves the amount from the available balance to the held balance at once; the merchant then completes or rejects it, and the user may cancel it while it is pending.",
    security: hashSecurity,
    request: { headers: idempotencyKeyHeaders, body: jsonBody(WithdrawalInput) },
    responses: {
      201: ok("The withdrawal, `pending`.", WithdrawalSchema),
      400: jsonResponse(
        "Invalid fields; a body that is not a JSON object; or more than the available balance (`insufficient_balance`).",
        z.union([FieldErrorsSchema, ErrorMessageSchema]),
      ),
      401: hashUnauthorized,
      409: idempotencyConflict,
    },
  });

  registry.registerPath({
    method: "get",
    path: "/payout/operations/withdrawals/{withdrawal_id}",
    tags: [userTag],
    operationId: "getOwnWithdrawal",
    summary: "One of the payout user's withdrawals",
    security: hashSecurity,
    request: { params: withdrawalParams },
    responses: {
      200: jsonResponse("The withdrawal.", WithdrawalSchema),
      401: hashUnauthorized,
      404: withdrawalNotFound,
    },
  });

  registry.registerPath({
    method: "post",
    path: "/payout/operations/withdrawals/{withdrawal_id}/cancel",
    tags: [userTag],
    operationId: "cancelOwnWithdrawal",
    summary: "Cancel a pending withdrawal",
    description:
      "The funds go back to the available balance. Canceling a canceled withdrawal again answers it unchanged.",
    security: hashSecurity,
    request: {
      params: withdrawalParams,
      headers: idempotencyKeyHeaders,
      body: jsonBody(
        settleSchema.pick({ reason: true }).extend(payoutHashField).meta({ id: "WithdrawalCancelInput" }),
        false,
      ),
    },
    responses: {
      200: ok("The canceled withdrawal.", WithdrawalSchema),
      400: errorResponses.badRequest,
      401: hashUnauthorized,
      404: withdrawalNotFound,
      409: notPendingConflict,
    },
  });
}

/** Every /payout/* route: the merchant's (secret key) and the payout user's (hash). */
export function registerPayouts(registry: OpenAPIRegistry): void {
  registerMerchantPayouts(registry);
  registerPayoutUserOperations(registry);
}
