import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ledgerAccounts } from "@/db/schema";
import { api, createTestBusiness, testDb } from "@/test/helpers";

describe("GET /balance", () => {
  it("a new business has {balance: 0, payout_balance: 0}, integers, nothing else", async () => {
    const biz = await createTestBusiness();
    const res = await api("GET", "/balance", { key: biz.secretKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ balance: 0, payout_balance: 0 });
    expect(Number.isInteger(res.body.balance)).toBe(true);
    expect(Number.isInteger(res.body.payout_balance)).toBe(true);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  });

  it("a live business too", async () => {
    const live = await createTestBusiness({ mode: "live" });
    const res = await api("GET", "/balance", { key: live.secretKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ balance: 0, payout_balance: 0 });
  });

  it("reads each balance from its own account, for this business only", async () => {
    const biz = await createTestBusiness();
    const other = await createTestBusiness();
    // Fixture only: app code moves money through ledger transactions.
    const set = (kind: "business_balance" | "payout_balance", balance: number) =>
      testDb()
        .update(ledgerAccounts)
        .set({ balance })
        .where(and(eq(ledgerAccounts.businessId, biz.business.id), eq(ledgerAccounts.kind, kind)));
    await set("business_balance", 123_456);
    await set("payout_balance", 7_890);
    expect((await api("GET", "/balance", { key: biz.secretKey })).body).toEqual({
      balance: 123_456,
      payout_balance: 7_890,
    });
    expect((await api("GET", "/balance", { key: other.secretKey })).body).toEqual({
      balance: 0,
      payout_balance: 0,
    });
  });
});
