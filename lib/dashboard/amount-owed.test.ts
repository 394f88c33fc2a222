import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { disputes } from "@/db/schema";
import { getBalanceSummary } from "@/lib/ledger/get-balances";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import { helperPay, newSession, paymentsBusiness } from "@/lib/payments/testing/payment-fixtures";
import { settleSandbox, withDisputeProviders } from "@/lib/disputes/testing/sandbox-settle";
import { api, testDb } from "@/test/helpers";
import { withLoopbackApi } from "@/test/loopback-api";
import { getOverview } from "./get-overview";
import { getPayoutsDashboard } from "./payouts";

// Issue 41, item 16: the money a business owes after a dispute is shown to the dashboard (the
// overview, the payouts page), while GET /balance keeps the interface's two fields.

withLoopbackApi();
verifyLedgerAfterEach();

const providers = withDisputeProviders();

type Biz = Awaited<ReturnType<typeof paymentsBusiness>>;

const settle = (biz: Biz, ready: () => Promise<boolean>) => settleSandbox(providers(), biz.business.id, ready);

describe("an amount owed after a chargeback", () => {
  it("shows on the overview and the payouts page, not in GET /balance; the refusal speaks in dollars", async () => {
    const biz = await paymentsBusiness({ payoutsEnabled: true });
    const before = await getOverview(testDb(), biz.business.id);
    expect(before.amountOwed).toBe(0);

    // $25.00 paid (net $23.97 credited), then charged back: $25.00 and the $15.00 fee withdrawn.
    const { session_id } = await newSession(biz);
    expect((await helperPay(biz, session_id, { card_number: "4000000000000259" })).body.status).toBe("succeeded");
    await settle(biz, async () => {
      const [row] = await testDb().select().from(disputes).where(and(eq(disputes.businessId, biz.business.id), eq(disputes.sessionId, session_id)));
      return Boolean(row) && (await getBalanceSummary(testDb(), biz.business.id)).amountOwed > 0;
    });
    const owed = 2500 + 1500 - 2397;

    expect(await getBalanceSummary(testDb(), biz.business.id)).toEqual({ balance: 0, payoutBalance: 0, amountOwed: owed });
    expect(await getOverview(testDb(), biz.business.id)).toMatchObject({ balance: 0, amountOwed: owed });
    expect(await getPayoutsDashboard(testDb(), biz.business.id)).toMatchObject({ balance: 0, payoutBalance: 0, amountOwed: owed });

    const balance = await api("GET", "/balance", { key: biz.secretKey });
    expect(balance.status).toBe(200);
    expect(balance.body).toEqual({ balance: 0, payout_balance: 0 });

    const allocate = await api("POST", "/payout/create", { key: biz.secretKey, body: { email: "owed@example.com", amount: 100 } });
    expect(allocate.status).toBe(409);
    expect(allocate.body).toMatchObject({ error: "amount_owed", message: expect.stringContaining("$16.03") });
    expect(String(allocate.body.message)).not.toMatch(/cents/);
  });
});
