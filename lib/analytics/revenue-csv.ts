import { stringify } from "csv-stringify/sync";
import { csvOptions } from "@/lib/exports/csv-cell";
import { revenueFigureNames, type RevenueAnalytics } from "./revenue-schemas";

/** The CSV header: each bucket's edges, then every figure in the API's order. */
export const revenueCsvColumns = ["start", "end", ...revenueFigureNames] as const;

/**
 * The series of GET /analytics/revenue as RFC 4180 CSV (the dashboard's download): one row per
 * bucket, oldest first, header row first; amounts in cents, times ISO 8601 UTC. Every cell is a
 * number or a timestamp Kassa wrote, so none can start a spreadsheet formula.
 */
export function revenueCsv(analytics: RevenueAnalytics): string {
  const rows = analytics.data.map((bucket) => revenueCsvColumns.map((column) => bucket[column]));
  return stringify([[...revenueCsvColumns], ...rows], csvOptions);
}
