import { readJsonObject } from "@/lib/http/body";
import { apiHandler } from "@/lib/api/handler";
import { UnauthorizedError } from "@/lib/errors";
import { creditSandboxPayoutBalance, sandboxCreditSchema } from "@/lib/ledger/credit-sandbox-payout-balance";
import { parseOrThrow } from "@/lib/http/validation";

// POST /sandbox/payout-balance: credits the payout balance of a sandbox business, answers the balances
export const postSandboxPayoutBalance = apiHandler({
  auth: "secret",
  idempotent: "transaction",
  handle: async ({ request, caller }) => {
    if (caller.business.mode !== "sandbox")
      throw new UnauthorizedError("sandbox helper called with a live key");
    const body = await readJsonObject(request);
    const { amount } = parseOrThrow(sandboxCreditSchema, body);
    return {
      body,
      run: async (tx) => ({ status: 200, body: await creditSandboxPayoutBalance(tx, caller.business, amount) }),
    };
  },
});
