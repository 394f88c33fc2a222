import { z } from "zod";
import type { Db } from "@/db/client";
import type { Business } from "@/db/schema";
import { UnauthorizedError } from "@/lib/errors";
import { getBalances } from "./get-balances";
import { postTransaction } from "./post-transaction";
import { checkAmount, type Balances } from "./transfer-to-payout-balance";

export const maxSandboxCredit = 100_000_000;

const amountMessage = `amount must be an integer number of cents between 1 and ${maxSandboxCredit}`;

/** Body of POST /sandbox/payout-balance; one message for every fault, like checkAmount's. */
export const sandboxCreditSchema = z.object({
  amount: z
    .number({ error: amountMessage })
    .int({ error: amountMessage, abort: true })
    .min(1, { error: amountMessage, abort: true })
    .max(maxSandboxCredit, { error: amountMessage, abort: true })
    .meta({ description: "Cents to add to the payout balance, as if paid in from outside." }),
});

/**
 * POST /sandbox/payout-balance: credits a sandbox business's payout balance with money from the
 * outside world, as one ledger transaction. A live business never gets here (401, like any other
 * sandbox helper).
 */
export async function creditSandboxPayoutBalance(
  db: Db,
  business: Pick<Business, "id" | "mode">,
  amount: unknown,
): Promise<Balances> {
  if (business.mode !== "sandbox") throw new UnauthorizedError("sandbox helper called for a live business");
  const cents = checkAmount(amount, maxSandboxCredit);
  return db.transaction(async (tx) => {
    await postTransaction(tx, {
      businessId: business.id,
      kind: "sandbox_credit",
      entries: [
        { account: { kind: "external" }, amount: -cents },
        { account: { kind: "payout_balance" }, amount: cents },
      ],
    });
    return getBalances(tx, business.id);
  });
}
