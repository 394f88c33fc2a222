import { z } from "zod";
import { isSafeText } from "@/lib/http/validation";

/** The interface's list filters: the statuses and `canceling` (a cancellation is scheduled). */
export const subscriptionListStatuses = ["active", "past_due", "canceling", "canceled"] as const;

const cursor = z.string().regex(/^psub_[0-9A-Za-z]{1,64}$/, "Not a subscription cursor");
const empty = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : typeof v === "string" ? v.trim() : v);

export const subscriptionFiltersSchema = z
  .object({
    status: z.preprocess(empty, z.enum(subscriptionListStatuses, { error: "Unknown status" }).optional()),
    customer: z.preprocess(
      empty,
      z.string().max(255, "At most 255 characters").refine(isSafeText, "Must not contain NUL characters or unpaired surrogates").optional(),
    ),
    after: z.preprocess(empty, cursor.optional()),
    before: z.preprocess(empty, cursor.optional()),
  })
  .refine((f) => !(f.after && f.before), { path: ["after"], message: "Page forwards or backwards, not both" });

export type SubscriptionFilters = z.infer<typeof subscriptionFiltersSchema>;

export type ParsedSubscriptionFilters =
  | { ok: true; filters: SubscriptionFilters }
  | { ok: false; message: string; fields: Record<string, string[]>; filters: SubscriptionFilters };

/** The subscriptions page's query string; bad input never throws: the page says so and lists without it. */
export function parseSubscriptionFilters(params: Record<string, string | string[] | undefined>): ParsedSubscriptionFilters {
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const raw = Object.fromEntries(["status", "customer", "after", "before"].map((k) => [k, first(params[k])]));
  const result = subscriptionFiltersSchema.safeParse(raw);
  if (result.success) return { ok: true, filters: result.data };
  const fields: Record<string, string[]> = {};
  for (const issue of result.error.issues) (fields[String(issue.path[0] ?? "filters")] ??= []).push(issue.message);
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (fields[key]) continue;
    const single = subscriptionFiltersSchema.safeParse({ [key]: value });
    if (single.success) kept[key] = (single.data as Record<string, unknown>)[key];
  }
  const message = Object.entries(fields)
    .map(([key, messages]) => `${key}: ${messages.join(", ")}`)
    .join("; ");
  return { ok: false, message, fields, filters: kept as SubscriptionFilters };
}
