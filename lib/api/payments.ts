import { apiHandler } from "@/lib/http/handler";
import { json } from "@/lib/http/respond";
import { origin } from "@/lib/env";
import { getBalances } from "@/lib/ledger/get-balances";
import { getPayment } from "@/lib/payments/get-payment";
import { listMethods, parseMethodFilters } from "@/lib/payments/list-methods";

// GET /payment/{session_id}
export const getPaymentHandler = apiHandler({
  auth: "secret",
  handle: async ({ params, db, caller }) => json(200, await getPayment(db, caller.business, params.session_id ?? "")),
});

// GET /payments/methods
export const getPaymentMethods = apiHandler({
  auth: "secret_or_public",
  handle: async ({ request, db, caller }) => {
    const filters = parseMethodFilters(new URL(request.url).searchParams);
    return json(200, await listMethods(db, caller.business.id, filters, origin()));
  },
});

// GET /balance
export const getBalance = apiHandler({
  auth: "secret",
  handle: async ({ db, caller }) => json(200, await getBalances(db, caller.business.id)),
});
