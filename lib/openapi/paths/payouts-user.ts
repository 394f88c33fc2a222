import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import {
  cancelWithdrawalActionSchema,
  settleSchema,
  withdrawalListQuerySchema,
  withdrawalSchema,
} from "@/lib/payouts/payout-input";
import {
  PayoutHistorySchema,
  PayoutUserSchema,
  WithdrawalListSchema,
  WithdrawalSchema,
} from "@/lib/payouts/payout-schemas";
import {
  ErrorMessageSchema,
  FieldErrorsSchema,
  errorResponses,
  idempotencyKeyHeaders,
  jsonBody,
  jsonResponse,
  security,
} from "../common";
import {
  userTag,
  withdrawalParams,
  payoutHashField,
  page,
  ok,
  withdrawalNotFound,
  hashUnauthorized,
  notPendingConflict,
  idempotencyConflict,
} from "./payouts-common";

/** The payout user's own side: hash authentication. */
export function registerPayoutUserOperations(registry: OpenAPIRegistry): void {
  registerPayoutBalance(registry);
  registerPayoutOperationsPost(registry);
  registerOwnHistoryAndWithdrawals(registry);
  registerWithdrawalRequest(registry);
  registerOwnWithdrawal(registry);
}

const hashSecurity = security.payoutHash;

// GET /payout/operations
function registerPayoutBalance(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: "/payout/operations",
    tags: [userTag],
    operationId: "getPayoutBalance",
    summary: "The payout user's balance and profile",
    description:
      "The payout user's own balance and profile, authenticated by their payout hash.",
    security: hashSecurity,
    responses: {
      200: jsonResponse("The payout user.", PayoutUserSchema),
      401: hashUnauthorized,
    },
  });
}

// POST /payout/operations: every operation on one path, chosen by `action`
function registerPayoutOperationsPost(registry: OpenAPIRegistry): void {
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
}

// GET /payout/operations/history and /payout/operations/withdrawals
function registerOwnHistoryAndWithdrawals(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: "/payout/operations/history",
    tags: [userTag],
    operationId: "listPayoutHistory",
    summary: "The payout user's history",
    description:
      "The payout user's own history of allocations and withdrawals, newest first, with `limit` and `starting_after`.",
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
    description:
      "The payout user's own withdrawals, newest first, with `limit` and `starting_after`.",
    security: hashSecurity,
    request: { query: withdrawalListQuerySchema },
    responses: {
      200: jsonResponse("A page of withdrawals, newest first.", WithdrawalListSchema),
      400: errorResponses.invalidFields,
      401: hashUnauthorized,
    },
  });
}

// POST /payout/operations/withdrawals
function registerWithdrawalRequest(registry: OpenAPIRegistry): void {
  const WithdrawalInput = withdrawalSchema.extend(payoutHashField).meta({ id: "WithdrawalInput" });

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
}

// GET /payout/operations/withdrawals/{withdrawal_id} and POST its cancel
function registerOwnWithdrawal(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: "/payout/operations/withdrawals/{withdrawal_id}",
    tags: [userTag],
    operationId: "getOwnWithdrawal",
    summary: "One of the payout user's withdrawals",
    description:
      "One of the payout user's own withdrawals, with its status.",
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
