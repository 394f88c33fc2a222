import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "@/db/client";
import { newId } from "@/lib/ids";
import { api, createTestBusiness, testDb } from "@/test/helpers";
import { postTransaction } from "./post-transaction";
import { fundedBusiness, ledgerAccountId } from "./testing/ledger-fixtures";
import { formatLedgerReport, verifyLedger } from "./verify-ledger";

// This file corrupts its own database on purpose: each test checks one business's report.

describe("verifyLedger", () => {
  it("reports a clean ledger as ok", async () => {
    const { business } = await fundedBusiness();
    const report = await verifyLedger(testDb(), { businessId: business.id });
    expect(report).toMatchObject({ ok: true, business_id: business.id, problems: [] });
    expect(report.checked).toEqual({ transactions: 1, entries: 2, accounts: 3 });
    expect(formatLedgerReport(report)).toContain("OK");
  });

  it("finds a transaction whose entries do not sum to zero", async () => {
    const { business } = await fundedBusiness();
    const txId = newId("ledgerTransaction");
    const account = await ledgerAccountId(business.id, "business_balance");
    await testDb().execute(
      sql`INSERT INTO ledger_transactions (id, business_id, kind) VALUES (${txId}, ${business.id}, 'bad')`,
    );
    await testDb().execute(
      sql`INSERT INTO ledger_entries (id, transaction_id, account_id, amount) VALUES (${newId("ledgerEntry")}, ${txId}, ${account}, 5)`,
    );
    await testDb().execute(sql`UPDATE ledger_accounts SET balance = balance + 5 WHERE id = ${account}`);
    const report = await verifyLedger(testDb(), { businessId: business.id });
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual([
      { check: "transaction_unbalanced", business_id: business.id, transaction_id: txId, sum: 5, entries: 1 },
    ]);
    expect(formatLedgerReport(report)).toMatch(/FAILED: 1 problem\(s\)[\s\S]*transaction_unbalanced/);
  });

  it("finds a cached balance that differs from the sum of its entries", async () => {
    const { business } = await fundedBusiness();
    const account = await ledgerAccountId(business.id, "payout_balance");
    await testDb().execute(sql`UPDATE ledger_accounts SET balance = 7 WHERE id = ${account}`);
    const report = await verifyLedger(testDb(), { businessId: business.id });
    expect(report.problems).toEqual([
      {
        check: "balance_mismatch",
        business_id: business.id,
        account_id: account,
        kind: "payout_balance",
        owner_id: "",
        cached: 7,
        entries_sum: 0,
      },
    ]);
  });

  it("finds entries that touch another business's account", async () => {
    const { business } = await fundedBusiness();
    const other = await fundedBusiness();
    const txId = newId("ledgerTransaction");
    const mine = await ledgerAccountId(business.id, "external");
    const theirs = await ledgerAccountId(other.business.id, "business_balance");
    await testDb().execute(
      sql`INSERT INTO ledger_transactions (id, business_id, kind) VALUES (${txId}, ${business.id}, 'bad')`,
    );
    await testDb().execute(sql`INSERT INTO ledger_entries (id, transaction_id, account_id, amount) VALUES
      (${newId("ledgerEntry")}, ${txId}, ${mine}, -3), (${newId("ledgerEntry")}, ${txId}, ${theirs}, 3)`);
    await testDb().execute(sql`UPDATE ledger_accounts SET balance = balance - 3 WHERE id = ${mine}`);
    await testDb().execute(sql`UPDATE ledger_accounts SET balance = balance + 3 WHERE id = ${theirs}`);
    const report = await verifyLedger(testDb(), { businessId: business.id });
    expect(report.problems).toEqual([
      expect.objectContaining({ check: "cross_business_entry", transaction_id: txId, account_id: theirs }),
    ]);
  });

  it("finds held funds that do not match the pending withdrawals", async () => {
    const biz = await createTestBusiness({ payoutsEnabled: true });
    await api("POST", "/sandbox/payout-balance", { key: biz.secretKey, body: { amount: 500 } });
    const created = await api("POST", "/payout/create", {
      key: biz.secretKey,
      body: { email: "held@example.com", amount: 300 },
    });
    expect(created.status).toBe(201);
    const [user] = await queryRows<{ id: string }>(
      testDb(),
      sql`SELECT id FROM payout_users WHERE business_id = ${biz.business.id}`,
    );
    // A balanced but wrong movement: user funds moved to the hold with no withdrawal behind it.
    await postTransaction(testDb(), {
      businessId: biz.business.id,
      kind: "bad",
      entries: [
        { account: { kind: "payout_user", ownerId: user!.id }, amount: -100 },
        { account: { kind: "payout_hold", ownerId: user!.id }, amount: 100 },
      ],
    });
    const report = await verifyLedger(testDb(), { businessId: biz.business.id });
    expect(report.problems).toEqual([
      {
        check: "payout_history_mismatch",
        business_id: biz.business.id,
        payout_user_id: user!.id,
        balance: 200,
        history_sum: 300,
      },
      {
        check: "payout_hold_mismatch",
        business_id: biz.business.id,
        payout_user_id: user!.id,
        held: 100,
        pending_withdrawals: 0,
      },
    ]);
  });

  it("finds a negative balance (with the CHECK removed, as a damaged database would be)", async () => {
    const { business } = await fundedBusiness();
    const account = await ledgerAccountId(business.id, "payout_balance");
    await testDb().execute(
      sql`ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_balance_nonnegative`,
    );
    await testDb().execute(sql`UPDATE ledger_accounts SET balance = -4 WHERE id = ${account}`);
    const report = await verifyLedger(testDb(), { businessId: business.id });
    expect(report.problems.map((p) => p.check).sort()).toEqual(["balance_mismatch", "negative_balance"]);
    expect(report.problems).toContainEqual(
      expect.objectContaining({ check: "negative_balance", account_id: account, balance: -4 }),
    );
  });

  it("checks every business when none is named", async () => {
    const report = await verifyLedger(testDb());
    expect(report.business_id).toBeNull();
    expect(report.ok).toBe(false);
    expect(new Set(report.problems.map((p) => p.check))).toEqual(
      new Set([
        "transaction_unbalanced",
        "balance_mismatch",
        "cross_business_entry",
        "payout_history_mismatch",
        "payout_hold_mismatch",
        "negative_balance",
      ]),
    );
  });
});
