import { sql } from "drizzle-orm";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { newId } from "@/lib/ids";
import { testDb, testHandle } from "@/test/helpers";
import { fundedBusiness, ledgerAccountId } from "./testing/ledger-fixtures";
import { verifyLedger } from "./verify-ledger";
import { verifyLedgerSinceCheckpoint } from "./verify-ledger-since";

const fundedBusinessId = async (amount?: number) => (await fundedBusiness(amount)).business.id;

// This file corrupts its own database on purpose, then mends it with compensating rows (the
// ledger is append-only), so each test starts from a clean ledger and a checkpoint at its end.

/** Raw rows, as a damaged database (or a bug) would leave them; `db` another connection's. */
async function rawTransaction(
  businessId: string,
  entries: { account: string; amount: number }[],
  db = testDb(),
) {
  const txId = newId("ledgerTransaction");
  await db.execute(
    sql`INSERT INTO ledger_transactions (id, business_id, kind) VALUES (${txId}, ${businessId}, 'raw')`,
  );
  for (const e of entries)
    await db.execute(
      sql`INSERT INTO ledger_entries (id, transaction_id, account_id, amount)
          VALUES (${newId("ledgerEntry")}, ${txId}, ${e.account}, ${e.amount})`,
    );
  return txId;
}

/** A clean ledger and a checkpoint at its end. */
async function checkpointed() {
  const report = await verifyLedgerSinceCheckpoint(testDb());
  expect(report.problems).toEqual([]);
  return report;
}

describe("verifyLedgerSinceCheckpoint", () => {
  it("verifies the whole ledger first, then only what came after the checkpoint", async () => {
    await fundedBusinessId();
    const first = await verifyLedgerSinceCheckpoint(testDb());
    expect(first).toMatchObject({ ok: true, mode: "full", problems: [] });
    expect(first.checked).toEqual((await verifyLedger(testDb())).checked);

    await fundedBusinessId(250);
    const next = await verifyLedgerSinceCheckpoint(testDb());
    expect(next).toMatchObject({ ok: true, mode: "incremental", problems: [] });
    expect(next.checked.transactions).toBe(1);
    expect(next.checked.entries).toBe(2);
    const quiet = await verifyLedgerSinceCheckpoint(testDb());
    expect(quiet).toMatchObject({ ok: true, mode: "incremental", checked: { transactions: 0, entries: 0 } });
  });

  it("finds an unbalanced transaction written after the checkpoint, and again until it is mended", async () => {
    const businessId = await fundedBusinessId();
    await checkpointed();
    const account = await ledgerAccountId(businessId, "business_balance");
    const txId = await rawTransaction(businessId, [{ account, amount: 5 }]);
    await testDb().execute(sql`UPDATE ledger_accounts SET balance = balance + 5 WHERE id = ${account}`);

    const report = await verifyLedgerSinceCheckpoint(testDb());
    expect(report).toMatchObject({ ok: false, mode: "incremental" });
    expect(report.problems).toEqual([
      { check: "transaction_unbalanced", business_id: businessId, transaction_id: txId, sum: 5, entries: 1 },
    ]);
    // The checkpoint stayed: the next run reports it again.
    expect((await verifyLedgerSinceCheckpoint(testDb())).problems).toEqual(report.problems);

    await testDb().execute(
      sql`INSERT INTO ledger_entries (id, transaction_id, account_id, amount) VALUES (${newId("ledgerEntry")}, ${txId}, ${account}, -5)`,
    );
    await testDb().execute(sql`UPDATE ledger_accounts SET balance = balance - 5 WHERE id = ${account}`);
    await checkpointed();
  });

  it("finds a cached balance changed without an entry, on an account untouched since the checkpoint", async () => {
    const businessId = await fundedBusinessId();
    await checkpointed();
    const account = await ledgerAccountId(businessId, "business_balance");
    await testDb().execute(sql`UPDATE ledger_accounts SET balance = balance + 7 WHERE id = ${account}`);

    const report = await verifyLedgerSinceCheckpoint(testDb());
    expect(report.mode).toBe("incremental");
    expect(report.problems).toEqual([
      expect.objectContaining({
        check: "balance_mismatch",
        account_id: account,
        cached: 1007,
        entries_sum: 1000,
      }),
    ]);
    await testDb().execute(sql`UPDATE ledger_accounts SET balance = balance - 7 WHERE id = ${account}`);
    await checkpointed();
  });
});

describe.runIf(Boolean(process.env.DATABASE_URL))("verifyLedgerSinceCheckpoint on PostgreSQL", () => {
  it("checks a transaction that commits after a checkpoint taken while it was open (a lower id)", async () => {
    const businessId = await fundedBusinessId();
    const account = await ledgerAccountId(businessId, "business_balance");
    const url = (testHandle() as { url?: string }).url;
    expect(url).toBeTruthy();
    const late = postgres(url!, { max: 1, onnotice: () => {} });
    try {
      const reserved = await late.reserve();
      try {
        // The late transaction starts first (its xid is the lower) and writes an unbalanced row.
        await reserved`BEGIN`;
        const txId = newId("ledgerTransaction");
        await reserved`INSERT INTO ledger_transactions (id, business_id, kind) VALUES (${txId}, ${businessId}, 'late')`;
        await reserved`INSERT INTO ledger_entries (id, transaction_id, account_id, amount) VALUES (${newId("ledgerEntry")}, ${txId}, ${account}, 9)`;
        await reserved`UPDATE ledger_accounts SET balance = balance + 9 WHERE id = ${account}`;
        // Meanwhile a later transaction commits, and a verification checkpoints past it.
        await fundedBusinessId(40);
        const during = await verifyLedgerSinceCheckpoint(testDb());
        expect(during.problems).toEqual([]);
        await reserved`COMMIT`;

        const after = await verifyLedgerSinceCheckpoint(testDb());
        expect(after.mode).toBe("incremental");
        expect(after.problems).toEqual([
          {
            check: "transaction_unbalanced",
            business_id: businessId,
            transaction_id: txId,
            sum: 9,
            entries: 1,
          },
        ]);
        await reserved`INSERT INTO ledger_entries (id, transaction_id, account_id, amount) VALUES (${newId("ledgerEntry")}, ${txId}, ${account}, -9)`;
        await reserved`UPDATE ledger_accounts SET balance = balance - 9 WHERE id = ${account}`;
        await checkpointed();
      } finally {
        reserved.release();
      }
    } finally {
      await late.end();
    }
  });
});

// Last: its damage cannot be mended (the entry stays in history), so every later run reports it.
describe("verifyLedgerSinceCheckpoint, last", () => {
  it("finds a new entry on another business's account", async () => {
    const businessId = await fundedBusinessId();
    const other = await fundedBusinessId();
    await checkpointed();
    const mine = await ledgerAccountId(businessId, "external");
    const theirs = await ledgerAccountId(other, "business_balance");
    const txId = await rawTransaction(businessId, [
      { account: mine, amount: -3 },
      { account: theirs, amount: 3 },
    ]);
    await testDb().execute(sql`UPDATE ledger_accounts SET balance = balance - 3 WHERE id = ${mine}`);
    await testDb().execute(sql`UPDATE ledger_accounts SET balance = balance + 3 WHERE id = ${theirs}`);

    const report = await verifyLedgerSinceCheckpoint(testDb());
    expect(report.problems).toEqual([
      expect.objectContaining({
        check: "cross_business_entry",
        business_id: businessId,
        transaction_id: txId,
        account_id: theirs,
      }),
    ]);
    // An entry stays in history: the checkpoint stays before it, so this file's last test.
  });
});
