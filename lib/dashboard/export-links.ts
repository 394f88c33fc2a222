import { dayAfter } from "@/lib/http/instant-param";
import type { ExportKind } from "@/lib/exports/export-filters";


/**
 * The CSV download of what a list page shows: its filters as the export's query
 * (docs/api/exports.md). `from`/`to` are the pages' inclusive days.
 */
export function exportHref(kind: ExportKind, filters: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams();
  const { from, to, ...rest } = filters;
  if (from) params.set("created_from", from);
  // `to` is inclusive, `created_until` exclusive; the range's last day has no bound after it.
  const until = to ? dayAfter(to) : null;
  if (until) params.set("created_until", until);
  for (const [key, value] of Object.entries(rest)) if (value) params.set(key, value);
  const query = params.toString();
  return `/dashboard/exports/${kind}.csv${query ? `?${query}` : ""}`;
}
