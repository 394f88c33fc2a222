import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import {
  createPayoutSchema,
  merchantWithdrawalListQuerySchema,
  payoutUserListQuerySchema,
  settleSchema,
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
  errorResponses,
  idempotencyKeyHeaders,
  jsonBody,
  jsonResponse,
  security,
} from "../common";
import {
  merchantTag,
  userParams,
  withdrawalParams,
  page,
  noBody,
  ok,
  withdrawalNotFound,
  payoutUserNotFound,
  notPendingConflict,
  idempotencyConflict,
} from "./payouts-common";

/** The merchant's side (secret key): allocate funds, manage payout users, settle withdrawals. */
export function registerMerchantPayouts(registry: OpenAPIRegistry): void {
  registerPayoutAllocation(registry);
  registerPayoutUserReads(registry);
  registerPayoutUserActions(registry);
  registerWithdrawalReads(registry);
  registerWithdrawalSettlements(registry);
}

// POST /payout/create
function registerPayoutAllocation(registry: OpenAPIRegistry): void {
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
}

// GET /payout/users, /payout/users/{user} and its history
function registerPayoutUserReads(registry: OpenAPIRegistry): void {
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
    description:
      "One payout user of the business, by e-mail or id: balance, status and creation time.",
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
}

// POST /payout/users/{user}/deactivate, reactivate and rotate-hash
function registerPayoutUserActions(registry: OpenAPIRegistry): void {
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
}

// GET /payout/withdrawals and /payout/withdrawals/{withdrawal_id}
function registerWithdrawalReads(registry: OpenAPIRegistry): void {
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
    description:
      "One withdrawal requested by a payout user of the business: amount, status and settlement.",
    security: security.secret,
    request: { params: withdrawalParams },
    responses: {
      200: jsonResponse("The withdrawal.", WithdrawalSchema),
      401: errorResponses.unauthorized,
      404: withdrawalNotFound,
    },
  });
}

// POST /payout/withdrawals/{withdrawal_id}/complete and reject
function registerWithdrawalSettlements(registry: OpenAPIRegistry): void {
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
