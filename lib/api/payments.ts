import { apiHandler } from "@/lib/api/handler";
import { json } from "@/lib/http/respond";
import { origin } from "@/lib/env";
import { getBalances } from "@/lib/ledger/get-balances";
import { getPayment } from "@/lib/payments/get-payment";
import { listMethods, parseMethodFilters } from "@/lib/payments/list-methods";

// GET /payment/{session_id}
export const getPaymentHandler = apiHandler({
  auth: "secret",
  // The key's check is folded into the payment's select (decision 0081).
  cachedKey: true,
  handle: async ({ params, db, caller, keyCheck }) =>
    json(200, await getPayment(db, caller.business, params.session_id ?? "", keyCheck)),
});

// GET /payments/methods
export const getPaymentMethods = apiHandler({
  auth: "secret_or_public",
  handle: async ({ request, db, caller }) => {
    const filters = parseMethodFilters(new URL(request.url).searchParams);
    // The interface recommends caching the list 5 to 15 minutes: 5, in the caller's cache only
    // (the answer is the key's business's), told apart by the key.
    return json(200, await listMethods(db, caller.business.id, filters, origin()), {
      "cache-control": "private, max-age=300",
      vary: "authorization",
    });
  },
});

// GET /balance
export const getBalance = apiHandler({
  auth: "secret",
  handle: async ({ db, caller }) => json(200, await getBalances(db, caller.business.id)),
});
