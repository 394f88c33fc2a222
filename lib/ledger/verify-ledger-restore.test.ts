import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "@/db/client";
import { newId } from "@/lib/ids";
import { createTestBusiness, testDb } from "@/test/helpers";
import { verifyLedgerSinceCheckpoint } from "./verify-ledger-since";

// A dump restored into a new cluster: its rows' and its checkpoint's transaction ids lie ahead of
// the cluster's own. The periodic verification must not trust the checkpoint then (decision 0079).

async function futureXid() {
  const [row] = await queryRows<{ xid: string }>(
    testDb(),
    sql`SELECT (pg_current_xact_id()::text::bigint + 1000000)::text AS xid`,
  );
  return row!.xid;
}

describe("verifyLedgerSinceCheckpoint after a restore", () => {
  it("verifies the whole ledger when the checkpoint is ahead of the cluster's transaction ids", async () => {
    await createTestBusiness();
    expect(await verifyLedgerSinceCheckpoint(testDb())).toMatchObject({ ok: true, mode: "full" });
    expect(await verifyLedgerSinceCheckpoint(testDb())).toMatchObject({ ok: true, mode: "incremental" });
    const ahead = await futureXid();
    await testDb().execute(
      sql`UPDATE ledger_verify_checkpoint SET snapshot = ${`${ahead}:${ahead}:`}::pg_snapshot`,
    );
    expect(await verifyLedgerSinceCheckpoint(testDb())).toMatchObject({ ok: true, mode: "full" });
    expect(await verifyLedgerSinceCheckpoint(testDb())).toMatchObject({ ok: true, mode: "incremental" });
  });

  it("keeps verifying the whole ledger while rows carry ids the cluster has not reached", async () => {
    const { business } = await createTestBusiness();
    const [bal] = await queryRows<{ id: string }>(
      testDb(),
      sql`SELECT id FROM ledger_accounts WHERE business_id = ${business.id} AND kind = 'business_balance'`,
    );
    const [ext] = await queryRows<{ id: string }>(
      testDb(),
      sql`SELECT id FROM ledger_accounts WHERE business_id = ${business.id} AND kind = 'external'`,
    );
    const ahead = await futureXid();
    const txId = newId("ledgerTransaction");
    await testDb().execute(
      sql`INSERT INTO ledger_transactions (id, business_id, kind, xid) VALUES (${txId}, ${business.id}, 'restored', ${ahead}::xid8)`,
    );
    for (const [account, amount] of [
      [ext!.id, -40],
      [bal!.id, 40],
    ] as const) {
      await testDb().execute(
        sql`INSERT INTO ledger_entries (id, transaction_id, account_id, amount, xid)
            VALUES (${newId("ledgerEntry")}, ${txId}, ${account}, ${amount}, ${ahead}::xid8)`,
      );
      await testDb().execute(sql`UPDATE ledger_accounts SET balance = balance + ${amount} WHERE id = ${account}`);
    }
    expect(await verifyLedgerSinceCheckpoint(testDb())).toMatchObject({ ok: true, mode: "full", problems: [] });
    expect(await verifyLedgerSinceCheckpoint(testDb())).toMatchObject({ ok: true, mode: "full", problems: [] });
  });
});
