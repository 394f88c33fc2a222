import type { ExportKind } from "@/lib/exports/export-filters";

/** A list page's day filter (`to` inclusive) as an export's range (`created_until` exclusive). */
function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/**
 * The CSV download of what a list page shows: its filters as the export's query
 * (docs/api/exports.md). `from`/`to` are the pages' inclusive days.
 */
export function exportHref(kind: ExportKind, filters: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams();
  const { from, to, ...rest } = filters;
  if (from) params.set("created_from", from);
  if (to) params.set("created_until", nextDay(to));
  for (const [key, value] of Object.entries(rest)) if (value) params.set(key, value);
  const query = params.toString();
  return `/dashboard/exports/${kind}.csv${query ? `?${query}` : ""}`;
}
