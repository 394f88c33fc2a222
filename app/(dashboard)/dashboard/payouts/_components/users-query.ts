import type { PayoutUsersQuery } from "@/lib/dashboard/payouts";
import { isSafeText } from "@/lib/http/validation";

export type SearchParams = Record<string, string | string[] | undefined>;

/** The list's query from the URL; anything malformed is dropped (and said so). */
export function usersQuery(params: SearchParams): { query: PayoutUsersQuery; ignored: string[] } {
  const one = (key: string) => (typeof params[key] === "string" ? (params[key] as string) : undefined);
  const query: PayoutUsersQuery = {};
  const ignored: string[] = [];
  const q = one("q")?.trim();
  if (q && q.length <= 255 && isSafeText(q)) query.q = q;
  else if (q) ignored.push("search (at most 255 characters, no NUL characters)");
  const status = one("status");
  if (status === "active" || status === "inactive") query.status = status;
  else if (status) ignored.push("status");
  const after = one("after");
  if (after && /^pu_[0-9A-Z]{26}$/.test(after)) query.after = after;
  else if (after) ignored.push("page");
  return { query, ignored };
}

export function usersHref(query: PayoutUsersQuery, after?: string): string {
  const params = new URLSearchParams();
  if (query.q) params.set("q", query.q);
  if (query.status) params.set("status", query.status);
  if (after) params.set("after", after);
  const qs = params.toString();
  return `/dashboard/payouts${qs ? `?${qs}` : ""}`;
}
