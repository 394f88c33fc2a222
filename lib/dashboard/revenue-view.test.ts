import { describe, expect, it } from "vitest";
import { revenueCsv, revenueCsvColumns } from "@/lib/analytics/revenue-csv";
import { createTestBusiness, testDb } from "@/test/helpers";
import { parseCsv } from "@/test/csv";
import { churnRates } from "./revenue-labels";
import { getRevenueView, parseRevenueFilters, revenueCsvHref, revenueQueryOf } from "./revenue-view";

describe("the overview's revenue range", () => {
  it("reads inclusive days: `to` ends after its day; the CSV link carries the same range", () => {
    const { filters, problem } = parseRevenueFilters({
      from: "2026-01-01",
      to: "2026-03-31",
      interval: "week",
    });
    expect(problem).toBeNull();
    expect(revenueQueryOf(filters)).toEqual({
      interval: "week",
      from: "2026-01-01T00:00:00.000Z",
      until: "2026-04-01T00:00:00.000Z",
    });
    expect(revenueCsvHref(filters)).toBe(
      "/dashboard/analytics/revenue.csv?interval=week&from=2026-01-01&to=2026-03-31",
    );
  });

  it.each([
    [{ from: "2026-02-30" }, /real date/],
    [{ to: "yesterday" }, /date like/],
    [{ interval: "year" }, /day, week or month/],
    [{ from: "0000-01-01" }, /1970-01-01/],
  ])("a bad filter %j is named, and the default range shown", async (params, message) => {
    const biz = await createTestBusiness();
    const view = await getRevenueView(testDb(), biz.business.id, params);
    expect(view.problem).toMatch(message);
    expect(view.filters).toEqual({ interval: "month" });
    expect(view.analytics.data).toHaveLength(12);
  });

  it("a range the service refuses (end before start, too many buckets) falls back the same way", async () => {
    const biz = await createTestBusiness();
    const backwards = await getRevenueView(testDb(), biz.business.id, {
      from: "2026-06-01",
      to: "2026-05-01",
    });
    expect(backwards.problem).toMatch(/until must be after from/);
    const tooMany = await getRevenueView(testDb(), biz.business.id, {
      from: "2020-01-01",
      to: "2026-01-01",
      interval: "day",
    });
    expect(tooMany.problem).toMatch(/more than 400 buckets/);
    expect(tooMany.analytics.interval).toBe("month");
  });

  it("the CSV holds the series shown: header, then one row per bucket with the API's figures", async () => {
    const biz = await createTestBusiness();
    const view = await getRevenueView(testDb(), biz.business.id, {
      from: "2026-01-01",
      to: "2026-01-10",
      interval: "day",
    });
    const rows = parseCsv(revenueCsv(view.analytics));
    expect(rows[0]).toEqual([...revenueCsvColumns]);
    expect(rows).toHaveLength(11);
    expect(rows[1]!.slice(0, 3)).toEqual(["2026-01-01T00:00:00.000Z", "2026-01-02T00:00:00.000Z", "0"]);
  });

  it("churn rate: churned over plans at the bucket's start; none at the start is no rate", () => {
    const bucket = (active: number, started: number, churned: number) =>
      ({ active_subscriptions: active, new_subscriptions: started, churned_subscriptions: churned }) as never;
    expect(churnRates([bucket(9, 0, 1), bucket(6, 0, 3), bucket(0, 0, 0), bucket(2, 2, 0)])).toEqual([
      10,
      33.3,
      0,
      null,
    ]);
  });
});
