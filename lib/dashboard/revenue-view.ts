import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { businesses } from "@/db/schema";
import { getRevenueAnalytics } from "@/lib/analytics/get-revenue-analytics";
import { revenueIntervals, type RevenueInterval } from "@/lib/analytics/revenue-buckets";
import type { RevenueAnalytics, RevenueQuery } from "@/lib/analytics/revenue-schemas";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { dayAfter, dayParam } from "@/lib/http/instant-param";

const empty = (v: unknown) =>
  typeof v === "string" && v.trim() === "" ? undefined : typeof v === "string" ? v.trim() : v;

/** The overview's range: inclusive days `from` and `to` (as date inputs send them) and the interval. */
const revenueFiltersSchema = z.object({
  from: z.preprocess(empty, dayParam().optional()),
  to: z.preprocess(empty, dayParam().optional()),
  interval: z.preprocess(empty, z.enum(revenueIntervals, { error: "Choose day, week or month" }).optional()),
});
export type RevenueFilters = { from?: string; to?: string; interval: RevenueInterval };

export type RevenueView = {
  analytics: RevenueAnalytics;
  filters: RevenueFilters;
  /** Why the asked range was not shown (the default range is shown instead); null when it was. */
  problem: string | null;
  /** The CSV download of the series shown. */
  csvHref: string;
};

type Params = Record<string, string | string[] | undefined>;

/** The filters of a query string, or the first message that refuses them (never a throw). */
export function parseRevenueFilters(params: Params): { filters: RevenueFilters; problem: string | null } {
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const parsed = revenueFiltersSchema.safeParse({
    from: first(params.from),
    to: first(params.to),
    interval: first(params.interval),
  });
  if (!parsed.success)
    return { filters: { interval: "month" }, problem: parsed.error.issues[0]?.message ?? "Invalid range" };
  return { filters: { ...parsed.data, interval: parsed.data.interval ?? "month" }, problem: null };
}

/** The service's query for the dashboard's filters: `to` is inclusive, `until` exclusive. */
export function revenueQueryOf(filters: RevenueFilters): RevenueQuery {
  const until = filters.to ? dayAfter(filters.to) : null;
  return {
    interval: filters.interval,
    ...(filters.from ? { from: new Date(`${filters.from}T00:00:00Z`).toISOString() } : {}),
    ...(until ? { until: new Date(`${until}T00:00:00Z`).toISOString() } : {}),
  };
}

/** The link that downloads the series shown as CSV (app/(dashboard)/dashboard/analytics). */
export function revenueCsvHref(filters: RevenueFilters): string {
  const params = new URLSearchParams({ interval: filters.interval });
  if (filters.from) params.set("from", filters.from);
  if (filters.to) params.set("to", filters.to);
  return `/dashboard/analytics/revenue.csv?${params.toString()}`;
}

/**
 * The overview's revenue section: the asked range, or (with the reason) the default range when the
 * asked one is refused: a bad day, `to` before `from`, too many buckets. Never a 500 from input.
 */
export async function getRevenueView(db: Db, businessId: string, params: Params): Promise<RevenueView> {
  const [business] = await db.select().from(businesses).where(eq(businesses.id, businessId));
  if (!business) throw new NotFoundError("business_not_found", "No such business");
  const parsed = parseRevenueFilters(params);
  let { filters, problem } = parsed;
  let analytics: RevenueAnalytics;
  try {
    analytics = await getRevenueAnalytics(db, business, revenueQueryOf(filters));
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    problem = Object.values(error.fields).flat()[0] ?? "Invalid range";
    filters = { interval: "month" };
    analytics = await getRevenueAnalytics(db, business, revenueQueryOf(filters));
  }
  return { analytics, filters, problem, csvHref: revenueCsvHref(filters) };
}
