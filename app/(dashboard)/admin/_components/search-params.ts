import { isSafeText } from "@/lib/http/validation";

/** Search parameters as Next gives them to a page. */
export type SearchParams = Record<string, string | string[] | undefined>;

/** One text parameter, trimmed, at most `max` characters; undefined when absent, repeated, too long or not storable text (the proxy answers that one 400 first). */
export function textParam(params: SearchParams, key: string, max = 200): string | undefined {
  const value = params[key];
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  return trimmed && trimmed.length <= max && isSafeText(trimmed) ? trimmed : undefined;
}

/** A cursor parameter: an id of the given prefix (a ULID after it), else undefined. */
export function cursorParam(params: SearchParams, key: string, prefix: string): string | undefined {
  const value = params[key];
  return typeof value === "string" && new RegExp(`^${prefix}_[0-9A-Z]{26}$`).test(value) ? value : undefined;
}

export function hrefWith(path: string, values: Record<string, string | undefined>): string {
  const qs = new URLSearchParams(Object.entries(values).filter((e): e is [string, string] => Boolean(e[1]))).toString();
  return `${path}${qs ? `?${qs}` : ""}`;
}
