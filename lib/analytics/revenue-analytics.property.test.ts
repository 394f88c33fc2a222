import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createTestBusiness, testDb } from "@/test/helpers";
import { getRevenueAnalytics } from "./get-revenue-analytics";
import { historyArb, historyStart, writeHistory, type History } from "./testing/revenue-history";
import { referenceFigures } from "./testing/revenue-reference";

// Correct by construction: random histories (payments in every status, refunds, disputes through
// the ledger, plans with every ending, failed and recovered renewals, a business clock ahead of
// real time) written to a real database; every figure of every bucket must equal a plain
// computation over the raw rows. ANALYTICS_PROPERTY_RUNS=200 for a longer search.
const numRuns = Number(process.env.ANALYTICS_PROPERTY_RUNS ?? 8);
const day = 86_400_000;

function queryOf(h: History, t0: number) {
  // Without `until` the range ends at the business's now: a `from` after it is a 400 (the route's test).
  const latest = Date.now() + h.clockAheadDays * day - 3_600_000;
  const fromMs = h.query.from === null ? null : t0 + h.query.from * 60_000;
  const from = fromMs === null ? undefined : new Date(h.query.until ? fromMs : Math.min(fromMs, latest));
  const until = h.query.until ? new Date((from?.getTime() ?? t0) + h.query.days * day) : undefined;
  return {
    interval: h.query.interval,
    ...(from ? { from: from.toISOString() } : {}),
    ...(until ? { until: until.toISOString() } : {}),
  };
}

describe("revenue analytics against a plain computation over the raw rows", () => {
  it("every figure of every bucket, and the totals, for random histories", { timeout: 600_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(historyArb, async (h) => {
        const biz = await createTestBusiness({ mode: "sandbox" });
        const t0 = historyStart();
        await writeHistory(testDb(), biz.business.id, h, t0);
        const business = { id: biz.business.id, clockOffsetMs: h.clockAheadDays * day };
        const got = await getRevenueAnalytics(testDb(), business, queryOf(h, t0));
        const from = Date.parse(got.data[0]!.start);
        const until = Date.parse(got.totals.end);
        if (!h.query.until)
          expect(Math.abs(until - (Date.now() + h.clockAheadDays * day))).toBeLessThan(60_000);
        const want = await referenceFigures(testDb(), biz.business.id, h.query.interval, from, until);
        expect(got.data).toEqual(want);
        const flows = Object.keys(want[0]!).filter(
          (k) =>
            ![
              "start",
              "end",
              "mrr",
              "mrr_past_due",
              "active_subscriptions",
              "past_due_subscriptions",
            ].includes(k),
        );
        for (const name of flows) {
          const key = name as keyof (typeof want)[number];
          expect(got.totals[key], name).toBe(want.reduce((a, b) => a + (b[key] as number), 0));
        }
        expect(got.totals).toMatchObject({
          mrr: want.at(-1)!.mrr,
          active_subscriptions: want.at(-1)!.active_subscriptions,
          start: want[0]!.start,
        });
      }),
      { numRuns },
    );
  });
});
