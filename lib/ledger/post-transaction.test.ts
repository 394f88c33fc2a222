import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ledgerAccounts, ledgerEntries, ledgerTransactions } from "@/db/schema";
import { InsufficientFundsError } from "@/lib/errors";
import { createTestBusiness, testDb } from "@/test/helpers";
import { getBalances } from "./get-balances";
import { postTransaction, UnbalancedTransactionError } from "./post-transaction";
import { verifyLedgerAfterEach } from "./verify-after-each";

verifyLedgerAfterEach();

const credit = (businessId: string, amount: number) =>
  postTransaction(testDb(), {
    businessId,
    kind: "test_credit",
    entries: [
      { account: { kind: "external" }, amount: -amount },
      { account: { kind: "business_balance" }, amount },
    ],
  });

async function countEntries(businessId: string) {
  const rows = await testDb()
    .select({ id: ledgerEntries.id })
    .from(ledgerEntries)
    .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
    .where(eq(ledgerTransactions.businessId, businessId));
  return rows.length;
}

describe("postTransaction", () => {
  it("appends a balanced transaction and moves the cached balances with it", async () => {
    const { business } = await createTestBusiness();
    const posted = await credit(business.id, 500);
    expect(posted.transactionId).toMatch(/^ltx_/);
    expect(posted.balanceOf("business_balance")).toBe(500);
    expect(posted.balanceOf("external")).toBe(-500);
    expect(await getBalances(testDb(), business.id)).toEqual({ balance: 500, payout_balance: 0 });
    expect(await countEntries(business.id)).toBe(2);
  });

  it("refuses entries that do not sum to zero, zero amounts, fractions and single entries", async () => {
    const { business } = await createTestBusiness();
    const bad = [
      [
        { account: { kind: "external" as const }, amount: -5 },
        { account: { kind: "business_balance" as const }, amount: 4 },
      ],
      [
        { account: { kind: "external" as const }, amount: 0 },
        { account: { kind: "business_balance" as const }, amount: 0 },
      ],
      [
        { account: { kind: "external" as const }, amount: -1.5 },
        { account: { kind: "business_balance" as const }, amount: 1.5 },
      ],
      [{ account: { kind: "business_balance" as const }, amount: 5 }],
    ];
    for (const entries of bad)
      await expect(
        postTransaction(testDb(), { businessId: business.id, kind: "test", entries }),
      ).rejects.toBeInstanceOf(UnbalancedTransactionError);
    expect(await countEntries(business.id)).toBe(0);
  });

  it("throws InsufficientFundsError on a debit below zero and changes nothing", async () => {
    const { business } = await createTestBusiness();
    await credit(business.id, 100);
    const attempt = postTransaction(testDb(), {
      businessId: business.id,
      kind: "payout_balance_transfer",
      entries: [
        { account: { kind: "payout_balance" }, amount: 101 },
        { account: { kind: "business_balance" }, amount: -101 },
      ],
    });
    await expect(attempt).rejects.toBeInstanceOf(InsufficientFundsError);
    await expect(attempt).rejects.toMatchObject({ accountKind: "business_balance" });
    expect(await getBalances(testDb(), business.id)).toEqual({ balance: 100, payout_balance: 0 });
    expect(await countEntries(business.id)).toBe(2);
  });

  it("is atomic inside a caller's transaction even when the caller catches the error", async () => {
    const { business } = await createTestBusiness();
    await credit(business.id, 100);
    await testDb().transaction(async (tx) => {
      // payout_balance is credited before business_balance fails (accounts go in a fixed order).
      await expect(
        postTransaction(tx, {
          businessId: business.id,
          kind: "test",
          entries: [
            { account: { kind: "payout_balance" }, amount: 150 },
            { account: { kind: "business_balance" }, amount: -150 },
          ],
        }),
      ).rejects.toBeInstanceOf(InsufficientFundsError);
      await postTransaction(tx, {
        businessId: business.id,
        kind: "test",
        entries: [
          { account: { kind: "payout_balance" }, amount: 60 },
          { account: { kind: "business_balance" }, amount: -60 },
        ],
      });
    });
    expect(await getBalances(testDb(), business.id)).toEqual({ balance: 40, payout_balance: 60 });
  });

  it("lets only the external account go negative, and the CHECK backs the rule up", async () => {
    const { business } = await createTestBusiness();
    const posted = await credit(business.id, 10);
    expect(posted.balanceOf("external")).toBe(-10);
    await expect(
      testDb()
        .update(ledgerAccounts)
        .set({ balance: -1 })
        .where(
          sql`${ledgerAccounts.businessId} = ${business.id} AND ${ledgerAccounts.kind} = 'business_balance'`,
        ),
    ).rejects.toThrow();
  });

  it("fails loudly for an account the business does not have", async () => {
    const { business } = await createTestBusiness();
    await expect(
      postTransaction(testDb(), {
        businessId: business.id,
        kind: "test",
        entries: [
          { account: { kind: "external" }, amount: -1 },
          { account: { kind: "payout_user", ownerId: "pu_missing" }, amount: 1 },
        ],
      }),
    ).rejects.toThrow(/No ledger account/);
  });

  it("keeps the ledger append-only: entries and transactions cannot be updated or deleted", async () => {
    const { business } = await createTestBusiness();
    const posted = await credit(business.id, 10);
    await expect(
      testDb()
        .update(ledgerEntries)
        .set({ amount: 11 })
        .where(eq(ledgerEntries.transactionId, posted.transactionId)),
    ).rejects.toThrow();
    await expect(
      testDb().delete(ledgerEntries).where(eq(ledgerEntries.transactionId, posted.transactionId)),
    ).rejects.toThrow();
    await expect(
      testDb()
        .update(ledgerTransactions)
        .set({ kind: "x" })
        .where(eq(ledgerTransactions.id, posted.transactionId)),
    ).rejects.toThrow();
    await expect(
      testDb().delete(ledgerTransactions).where(eq(ledgerTransactions.id, posted.transactionId)),
    ).rejects.toThrow();
    expect(await countEntries(business.id)).toBe(2);
  });
});
