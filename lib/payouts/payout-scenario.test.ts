import { describe, expect, it } from "vitest";
import { transferToPayoutBalance } from "@/lib/ledger/transfer-to-payout-balance";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import { formatLedgerReport, verifyLedger } from "@/lib/ledger/verify-ledger";
import { api, testDb } from "@/test/helpers";
import { asUser, creditBusinessBalance, payoutBusiness } from "./payout-test-helpers";

verifyLedgerAfterEach();

async function expectClean(step: string) {
  const report = await verifyLedger(testDb());
  expect(report.ok, `${step}\n${formatLedgerReport(report)}`).toBe(true);
}

describe("payouts end to end", () => {
  it("funds the payout balance, allocates to three users, one withdraws, and the ledger stays clean", async () => {
    const biz = await payoutBusiness();
    const id = biz.business.id;
    await creditBusinessBalance(id, 50_000);
    await expectClean("business balance credited");

    expect(await transferToPayoutBalance(testDb(), id, 30_000)).toEqual({
      balance: 20_000,
      payout_balance: 30_000,
    });
    await expectClean("moved to the payout balance");
    const sandbox = await api("POST", "/sandbox/payout-balance", {
      key: biz.secretKey,
      body: { amount: 5_000 },
    });
    expect(sandbox.body).toEqual({ balance: 20_000, payout_balance: 35_000 });
    await expectClean("sandbox credit");

    const hashes: string[] = [];
    for (const [email, amount] of [
      ["ana@example.com", 10_000],
      ["ben@example.com", 8_000],
      ["cleo@example.com", 7_000],
    ] as const) {
      const res = await api<{ hash: string }>("POST", "/payout/create", {
        key: biz.secretKey,
        body: { email, amount },
      });
      expect(res.status).toBe(201);
      hashes.push(res.body.hash);
      await expectClean(`allocated to ${email}`);
    }
    expect(new Set(hashes).size).toBe(3);
    expect((await api("GET", "/balance", { key: biz.secretKey })).body).toEqual({
      balance: 20_000,
      payout_balance: 10_000,
    });

    const ana = hashes[0]!;
    const withdrawal = await asUser<{ id: string; status: string }>(
      ana,
      "POST",
      "/payout/operations/withdrawals",
      {
        amount: 6_000,
        destination: "IBAN FR76 3000 6000 0112 3456 7890 189",
      },
    );
    expect(withdrawal.status).toBe(201);
    await expectClean("withdrawal requested");
    expect((await asUser(ana, "GET", "/payout/operations")).body).toMatchObject({
      balance: 4_000,
      held_balance: 6_000,
    });

    const done = await api("POST", `/payout/withdrawals/${withdrawal.body.id}/complete`, {
      key: biz.secretKey,
      body: { settlement_reference: "wire-0001" },
    });
    expect(done.body).toMatchObject({ status: "completed" });
    await expectClean("withdrawal completed");
    expect((await asUser(ana, "GET", "/payout/operations")).body).toMatchObject({
      balance: 4_000,
      held_balance: 0,
    });
    const history = await asUser<{ data: { type: string; amount: number }[] }>(
      ana,
      "GET",
      "/payout/operations/history",
    );
    expect(history.body.data.map((e) => [e.type, e.amount])).toEqual([
      ["withdrawal", -6_000],
      ["allocation", 10_000],
    ]);
  });
});
