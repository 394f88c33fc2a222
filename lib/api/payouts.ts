import type { z } from "zod";
import type { Db } from "@/db/client";
import type { PayoutUser } from "@/db/schema";
import { PayoutsDisabledError } from "@/lib/errors";
import { readJsonObject } from "@/lib/http/body";
import { apiHandler, type Params } from "@/lib/api/handler";
import type { IdempotentOperation } from "@/lib/api/idempotent-operation";
import { json } from "@/lib/http/respond";
import { parseOrThrow } from "@/lib/http/validation";
import { authenticatePayoutUser, payoutHashFrom } from "@/lib/payouts/authenticate-payout-user";
import { createPayout } from "@/lib/payouts/create-payout";
import { findPayoutUser } from "@/lib/payouts/find-payout-user";
import { listPayoutHistory } from "@/lib/payouts/list-payout-history";
import { listPayoutUsers } from "@/lib/payouts/list-payout-users";
import { getWithdrawal, listWithdrawals } from "@/lib/payouts/list-withdrawals";
import {
  cancelWithdrawalActionSchema,
  createPayoutSchema,
  merchantWithdrawalListQuerySchema,
  pageSchema,
  payoutActionSchema,
  payoutUserListQuerySchema,
  settleSchema,
  withdrawalListQuerySchema,
  withdrawalSchema,
  type SettleInput,
} from "@/lib/payouts/payout-input";
import { payoutUserView, withdrawalView } from "@/lib/payouts/payout-views";
import { requestWithdrawal } from "@/lib/payouts/request-withdrawal";
import {
  deactivatePayoutUser,
  reactivatePayoutUser,
  rotatePayoutHash,
} from "@/lib/payouts/set-payout-user-status";
import { cancelWithdrawal, completeWithdrawal, rejectWithdrawal } from "@/lib/payouts/settle-withdrawal";

/** The query string read with one of payout-input's query schemas; an empty parameter means absent. */
function queryFrom<S extends z.ZodObject>(schema: S, request: Request): z.infer<S> {
  const query = new URL(request.url).searchParams;
  const raw: Record<string, string> = {};
  for (const name of Object.keys(schema.shape)) {
    const value = query.get(name);
    if (value) raw[name] = value;
  }
  return parseOrThrow(schema, raw);
}

/** Paging from a body (`limit`, `starting_after`); null or empty means absent. */
function pageFromBody(body: Record<string, unknown>) {
  const get = (name: string) => (body[name] === null || body[name] === "" ? undefined : body[name]);
  return parseOrThrow(pageSchema, { limit: get("limit"), starting_after: get("starting_after") });
}

// ---------------------------------------------------------------------------------------------
// Merchant side: secret key.

// POST /payout/create
export const postPayoutCreate = apiHandler({
  auth: "secret",
  idempotent: "transaction",
  handle: async ({ request, caller }) => {
    if (!caller.business.payoutsEnabled)
      throw new PayoutsDisabledError("payouts are disabled for this business");
    const body = await readJsonObject(request);
    const input = parseOrThrow(createPayoutSchema, body);
    return {
      body,
      run: async (tx) => ({ status: 201, body: { hash: (await createPayout(tx, caller.business, input)).hash } }),
    };
  },
});

// GET /payout/users
export const getPayoutUsers = apiHandler({
  auth: "secret",
  handle: async ({ request, db, caller }) => {
    const { status, ...page } = queryFrom(payoutUserListQuerySchema, request);
    return json(200, await listPayoutUsers(db, { businessId: caller.business.id, status }, page));
  },
});

// GET /payout/users/{email or id}
export const getPayoutUser = apiHandler({
  auth: "secret",
  handle: async ({ params, db, caller }) =>
    json(200, await payoutUserView(db, await findPayoutUser(db, caller.business.id, params.user ?? ""))),
});

// GET /payout/users/{email or id}/history
export const getPayoutUserHistory = apiHandler({
  auth: "secret",
  handle: async ({ request, params, db, caller }) => {
    const page = queryFrom(pageSchema, request);
    const user = await findPayoutUser(db, caller.business.id, params.user ?? "");
    return json(200, await listPayoutHistory(db, user.id, page));
  },
});

/** A merchant POST that changes one payout user and answers its view; Idempotency-Key honoured. */
function payoutUserAction(change: (db: Db, businessId: string, ref: string) => Promise<PayoutUser>) {
  return apiHandler({
    auth: "secret",
    idempotent: "transaction",
    handle: async ({ request, params, caller }) => {
      const body = await readJsonObject(request, { allowEmpty: true });
      return {
        body,
        run: async (tx) => {
          const user = await change(tx, caller.business.id, params.user ?? "");
          return { status: 200, body: await payoutUserView(tx, user) };
        },
      };
    },
  });
}

// POST /payout/users/{email or id}/deactivate
export const postPayoutUserDeactivate = payoutUserAction(deactivatePayoutUser);

// POST /payout/users/{email or id}/reactivate
export const postPayoutUserReactivate = payoutUserAction(reactivatePayoutUser);

// POST /payout/users/{email or id}/rotate-hash
export const postPayoutUserRotateHash = apiHandler({
  auth: "secret",
  idempotent: "transaction",
  handle: async ({ request, params, caller }) => {
    const body = await readJsonObject(request, { allowEmpty: true });
    return {
      body,
      run: async (tx) => {
        const { hash } = await rotatePayoutHash(tx, caller.business.id, params.user ?? "");
        return { status: 200, body: { hash } };
      },
    };
  },
});

// GET /payout/withdrawals
export const getPayoutWithdrawals = apiHandler({
  auth: "secret",
  handle: async ({ request, db, caller }) => {
    const { status, payout_user: userRef, ...page } = queryFrom(merchantWithdrawalListQuerySchema, request);
    const payoutUserId = userRef ? (await findPayoutUser(db, caller.business.id, userRef)).id : undefined;
    return json(
      200,
      await listWithdrawals(db, { businessId: caller.business.id, payoutUserId, status }, page),
    );
  },
});

// GET /payout/withdrawals/{withdrawal_id}
export const getPayoutWithdrawal = apiHandler({
  auth: "secret",
  handle: async ({ params, db, caller }) =>
    json(
      200,
      withdrawalView(
        await getWithdrawal(db, { businessId: caller.business.id, withdrawalId: params.withdrawal_id ?? "" }),
      ),
    ),
});

type WithdrawalRef = { businessId: string; withdrawalId: string };

/** The merchant settles a pending withdrawal: one idempotent POST, the settling function varies. */
function settleWithdrawalHandler(
  settle: (tx: Db, ref: WithdrawalRef, input: SettleInput) => Promise<Parameters<typeof withdrawalView>[0]>,
) {
  return apiHandler({
    auth: "secret",
    idempotent: "transaction",
    handle: async ({ request, params, caller }) => {
      const body = await readJsonObject(request, { allowEmpty: true });
      const input = parseOrThrow(settleSchema, body);
      const ref = { businessId: caller.business.id, withdrawalId: params.withdrawal_id ?? "" };
      return { body, run: async (tx) => ({ status: 200, body: withdrawalView(await settle(tx, ref, input)) }) };
    },
  });
}

// POST /payout/withdrawals/{withdrawal_id}/complete
export const postPayoutWithdrawalComplete = settleWithdrawalHandler((tx, ref, input) =>
  completeWithdrawal(tx, ref, { settlementReference: input.settlement_reference }),
);

// POST /payout/withdrawals/{withdrawal_id}/reject
export const postPayoutWithdrawalReject = settleWithdrawalHandler((tx, ref, input) =>
  rejectWithdrawal(tx, ref, { reason: input.reason }),
);

// ---------------------------------------------------------------------------------------------
// Payout user side: hash authentication (header X-Payout-Hash, body payout_hash, query payout_hash).

type PayoutUserContext = {
  request: Request;
  params: Params;
  db: Db;
  user: PayoutUser;
  /** The JSON body without `payout_hash` ({} for GET). */
  body: Record<string, unknown>;
};

/**
 * A payout user endpoint. The hash is taken before the body is judged: a request without a valid
 * hash is a 401 whatever its body; only then does a malformed body give its 400.
 */
function payoutUserHandler(handle: (ctx: PayoutUserContext) => Promise<Response | IdempotentOperation>) {
  return apiHandler({
    auth: "none",
    idempotent: "transaction",
    handle: async ({ request, params, db }) => {
      let body: Record<string, unknown> | null = null;
      let bodyError: unknown = null;
      if (request.method !== "GET" && request.method !== "HEAD") {
        try {
          body = await readJsonObject(request, { allowEmpty: true });
        } catch (error) {
          bodyError = error;
        }
      }
      const user = await authenticatePayoutUser(db, payoutHashFrom(request, body));
      if (bodyError) throw bodyError;
      const { payout_hash: _hash, ...rest } = body ?? {};
      return handle({ request, params, db, user, body: rest });
    },
  });
}

const userPage = (ctx: PayoutUserContext) =>
  ctx.request.method === "GET" ? queryFrom(pageSchema, ctx.request) : pageFromBody(ctx.body);

const viewBalance = async (ctx: PayoutUserContext) => json(200, await payoutUserView(ctx.db, ctx.user));

const viewHistory = async (ctx: PayoutUserContext) =>
  json(200, await listPayoutHistory(ctx.db, ctx.user.id, userPage(ctx)));

/** A payout user's keys are the user's own. */
const userScope = (ctx: PayoutUserContext) => ({ businessId: ctx.user.businessId, principal: ctx.user.id });

const withdraw = async (ctx: PayoutUserContext): Promise<IdempotentOperation> => {
  const { action: _action, ...fields } = ctx.body;
  const input = parseOrThrow(withdrawalSchema, fields);
  return {
    body: ctx.body,
    scope: userScope(ctx),
    run: async (tx) => ({ status: 201, body: withdrawalView(await requestWithdrawal(tx, ctx.user, input)) }),
  };
};

const cancel = async (ctx: PayoutUserContext, withdrawalId: string): Promise<IdempotentOperation> => {
  const input = parseOrThrow(settleSchema.pick({ reason: true }), { reason: ctx.body.reason });
  const ref = { businessId: ctx.user.businessId, payoutUserId: ctx.user.id, withdrawalId };
  return {
    body: ctx.body,
    scope: userScope(ctx),
    run: async (tx) => ({
      status: 200,
      body: withdrawalView(await cancelWithdrawal(tx, ref, { reason: input.reason })),
    }),
  };
};

// GET /payout/operations: the payout user's balance and profile
export const getPayoutOperations = payoutUserHandler(viewBalance);

// POST /payout/operations: every operation on one path, chosen by `action` (for clients that can
// only POST here with the hash in the body; the resource paths below are preferred)
export const postPayoutOperations = payoutUserHandler(async (ctx) => {
  const { action } = parseOrThrow(payoutActionSchema, ctx.body);
  if (action === "balance") return viewBalance(ctx);
  if (action === "history") return viewHistory(ctx);
  if (action === "withdraw") return withdraw(ctx);
  return cancel(ctx, parseOrThrow(cancelWithdrawalActionSchema, ctx.body).withdrawal_id);
});

// GET /payout/operations/history
export const getPayoutOperationsHistory = payoutUserHandler(viewHistory);

// GET /payout/operations/withdrawals
export const getPayoutOperationsWithdrawals = payoutUserHandler(async (ctx) => {
  const { status, ...page } = queryFrom(withdrawalListQuerySchema, ctx.request);
  const filter = { businessId: ctx.user.businessId, payoutUserId: ctx.user.id, status };
  return json(200, await listWithdrawals(ctx.db, filter, page));
});

// POST /payout/operations/withdrawals
export const postPayoutOperationsWithdrawals = payoutUserHandler(withdraw);

// GET /payout/operations/withdrawals/{withdrawal_id}
export const getPayoutOperationsWithdrawal = payoutUserHandler(async (ctx) => {
  const ref = {
    businessId: ctx.user.businessId,
    payoutUserId: ctx.user.id,
    withdrawalId: ctx.params.withdrawal_id ?? "",
  };
  return json(200, withdrawalView(await getWithdrawal(ctx.db, ref)));
});

// POST /payout/operations/withdrawals/{withdrawal_id}/cancel
export const postPayoutOperationsWithdrawalCancel = payoutUserHandler((ctx) =>
  cancel(ctx, ctx.params.withdrawal_id ?? ""),
);
