import { describe, expect, it } from "vitest";
import { monthlyAmount } from "@/lib/analytics/revenue-buckets";
import type { RevenueAnalytics } from "@/lib/analytics/revenue-schemas";
import {
  advanceClock,
  pastFirstRenewal,
  runJobs,
  signUp,
  subscriptionBusiness,
  subscriptionOfSession,
  withLoopbackApi,
  withSubscriptionProviders,
} from "@/lib/subscriptions/testing/subscription-fixtures";
import { expectFieldErrors } from "@/test/api-assertions";
import { api, createTestBusiness } from "@/test/helpers";

withLoopbackApi();
withSubscriptionProviders();

const revenue = (key: string | null, query = "") =>
  api<RevenueAnalytics>("GET", `/analytics/revenue${query}`, { key });

describe("GET /analytics/revenue: who may ask, and what it refuses", () => {
  it("answers the secret key only: none, a wrong one or the public key is the interface's 401", async () => {
    const biz = await createTestBusiness();
    for (const key of [null, "sk_test_nope", biz.publicKey]) {
      const res = await revenue(key);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: "Unauthorized" });
    }
    const ok = await revenue(biz.secretKey);
    expect(ok.status).toBe(200);
    // The default: 12 calendar months by month, the last one ending at the business's now.
    expect(ok.body).toMatchObject({ currency: "USD", interval: "month" });
    expect(ok.body.data).toHaveLength(12);
    expect(ok.body.data[0]!.start).toMatch(/^\d{4}-\d{2}-01T00:00:00\.000Z$/);
    expect(Math.abs(Date.parse(ok.body.totals.end) - Date.now())).toBeLessThan(120_000);
    expect(ok.body.totals).toMatchObject({ gross_volume: 0, mrr: 0, active_subscriptions: 0 });
  });

  it("a bad query is a 400 naming the parameter", async () => {
    const biz = await createTestBusiness();
    const cases: [string, string][] = [
      ["?interval=year", "interval"],
      ["?interval=%00", "interval"],
      ["?from=yesterday", "from"],
      ["?from=2026-02-30", "from"],
      ["?until=0000-01-01", "until"],
      ["?from=2026-06-01&until=2026-05-01", "until"],
      ["?from=2026-06-01&until=2026-06-01", "until"],
      ["?interval=day&from=2020-01-01&until=2026-01-01", "interval"],
      ["?interval=week&from=1970-01-01&until=9999-12-31", "interval"],
    ];
    for (const [query, field] of cases) expectFieldErrors(await revenue(biz.secretKey, query), [field]);
    // The bound is on buckets, not days: a year by day, clipped at both ends, is fine.
    const year = await revenue(
      biz.secretKey,
      "?interval=day&from=2026-01-01T12:00:00Z&until=2027-01-01T06:00:00Z",
    );
    expect(year.status).toBe(200);
    expect(year.body.data).toHaveLength(366);
    expect(year.body.data[0]).toMatchObject({
      start: "2026-01-01T12:00:00.000Z",
      end: "2026-01-02T00:00:00.000Z",
    });
    expect(year.body.data.at(-1)).toMatchObject({
      start: "2027-01-01T00:00:00.000Z",
      end: "2027-01-01T06:00:00.000Z",
    });
  });
});

describe("GET /analytics/revenue: a business's plans through the real flows", () => {
  it("signups, a renewal, a failed renewal (past due, shown apart) and a cancellation, on the sandbox clock", async () => {
    const { biz } = await subscriptionBusiness();
    const from = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const signed = async (card?: string) => {
      const { sessionId } = await signUp(biz, card ? { card } : {});
      await runJobs(biz.business.id); // the plan's setup at the provider
      return subscriptionOfSession(sessionId);
    };
    const good = await signed();
    const failing = await signed("4000000000000341");
    const mrrOf = (s: typeof good) => monthlyAmount(s.unitAmount, s.interval, s.intervalCount);

    const before = await revenue(biz.secretKey, `?interval=day&from=${from}`);
    expect(before.body.totals).toMatchObject({
      payments: 2,
      new_subscriptions: 2,
      active_subscriptions: 2,
      mrr: mrrOf(good) + mrrOf(failing),
      mrr_new: mrrOf(good) + mrrOf(failing),
    });

    expect((await advanceClock(biz, pastFirstRenewal)).status).toBe(200);
    const after = await revenue(biz.secretKey, `?interval=week&from=${from}`);
    expect(after.status).toBe(200);
    expect(after.body.totals).toMatchObject({
      payments: 3,
      active_subscriptions: 2,
      past_due_subscriptions: 1,
      mrr: mrrOf(good) + mrrOf(failing),
      mrr_past_due: mrrOf(failing),
      renewals_failed: 1,
      renewals_recovered: 0,
      churned_subscriptions: 0,
    });
    // The renewal is dated on the business's clock: a month after the signups, not today.
    const renewedIn = after.body.data.filter((b) => b.payments > 0).map((b) => b.start);
    expect(renewedIn).toHaveLength(2);

    const canceled = await api("POST", `/subscriptions/${failing.id}/cancel`, {
      key: biz.secretKey,
      body: { at_period_end: false },
    });
    expect(canceled.status).toBe(200);
    const end = await revenue(biz.secretKey, `?interval=month&from=${from}`);
    expect(end.body.totals).toMatchObject({
      active_subscriptions: 1,
      past_due_subscriptions: 0,
      mrr: mrrOf(good),
      mrr_churned: mrrOf(failing),
      churned_subscriptions: 1,
      churned_voluntary: 1,
      churned_involuntary: 0,
    });
    const t = end.body.totals;
    expect(t.net_volume).toBe(t.gross_volume - t.refunded - t.disputed - t.fees);
  });
});
