import { describe, expect, it } from "vitest";
import { InsufficientFundsError, ValidationError } from "@/lib/errors";
import { creditBusinessBalance } from "@/lib/payouts/payout-test-helpers";
import { api, createTestBusiness, testDb } from "@/test/helpers";
import { creditSandboxPayoutBalance } from "./credit-sandbox-payout-balance";
import { getBalances } from "./get-balances";
import { transferToPayoutBalance } from "./transfer-to-payout-balance";
import { verifyLedgerAfterEach } from "./verify-after-each";

verifyLedgerAfterEach();

describe("transferToPayoutBalance", () => {
  it("moves funds from the business balance to the payout balance", async () => {
    const { business } = await createTestBusiness();
    await creditBusinessBalance(business.id, 1000);
    expect(await transferToPayoutBalance(testDb(), business.id, 400)).toEqual({
      balance: 600,
      payout_balance: 400,
    });
    expect(await getBalances(testDb(), business.id)).toEqual({ balance: 600, payout_balance: 400 });
  });

  it("refuses more than the business balance, and amounts that are not positive integers", async () => {
    const { business } = await createTestBusiness();
    await creditBusinessBalance(business.id, 100);
    await expect(transferToPayoutBalance(testDb(), business.id, 101)).rejects.toBeInstanceOf(
      InsufficientFundsError,
    );
    for (const amount of [0, -1, 1.5, Number.NaN])
      await expect(transferToPayoutBalance(testDb(), business.id, amount)).rejects.toBeInstanceOf(
        ValidationError,
      );
    expect(await getBalances(testDb(), business.id)).toEqual({ balance: 100, payout_balance: 0 });
  });
});

describe("POST /sandbox/payout-balance", () => {
  it("credits the payout balance of a sandbox business and answers the balances", async () => {
    const biz = await createTestBusiness({ mode: "sandbox" });
    const res = await api("POST", "/sandbox/payout-balance", { key: biz.secretKey, body: { amount: 2500 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ balance: 0, payout_balance: 2500 });
    const again = await api("POST", "/sandbox/payout-balance", { key: biz.secretKey, body: { amount: 500 } });
    expect(again.body).toEqual({ balance: 0, payout_balance: 3000 });
  });

  it("answers 401 for a live business, a public key, or no key", async () => {
    const live = await createTestBusiness({ mode: "live" });
    const sandbox = await createTestBusiness({ mode: "sandbox" });
    for (const key of [live.secretKey, sandbox.publicKey, null]) {
      const res = await api("POST", "/sandbox/payout-balance", { key, body: { amount: 100 } });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: "Unauthorized" });
    }
    await expect(creditSandboxPayoutBalance(testDb(), live.business, 100)).rejects.toThrow();
    expect(await getBalances(testDb(), live.business.id)).toEqual({ balance: 0, payout_balance: 0 });
  });

  it("answers 400 {amount: [...]} for an invalid amount", async () => {
    const biz = await createTestBusiness();
    for (const amount of [0, -5, 1.5, "100", null, 100_000_001]) {
      const res = await api("POST", "/sandbox/payout-balance", { key: biz.secretKey, body: { amount } });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body)).toEqual(["amount"]);
    }
  });
});
