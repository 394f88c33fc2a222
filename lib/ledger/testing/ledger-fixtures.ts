// Test support for the ledger's verify tests, which damage their own database on purpose.
import { sql } from "drizzle-orm";
import { queryRows } from "@/db/client";
import { createTestBusiness, testDb } from "@/test/helpers";
import { postTransaction } from "../post-transaction";

/** A business's ledger account of one kind (a payout user's with `ownerId`). */
export async function ledgerAccountId(businessId: string, kind: string, ownerId = "") {
  const [row] = await queryRows<{ id: string }>(
    testDb(),
    sql`SELECT id FROM ledger_accounts WHERE business_id = ${businessId} AND kind = ${kind} AND owner_id = ${ownerId}`,
  );
  return row!.id;
}

/** A business with payouts on and `amount` credited to its balance by one clean transaction. */
export async function fundedBusiness(amount = 1000) {
  const biz = await createTestBusiness({ payoutsEnabled: true });
  await postTransaction(testDb(), {
    businessId: biz.business.id,
    kind: "test_credit",
    entries: [
      { account: { kind: "external" }, amount: -amount },
      { account: { kind: "business_balance" }, amount },
    ],
  });
  return biz;
}
