import { z } from "zod";
import { dayParam } from "@/lib/http/instant-param";
import { isSafeText } from "@/lib/http/validation";
import { paymentStatuses } from "@/db/schema";
import { paymentDisputeFilters } from "@/lib/disputes/dispute-filter";

/** Statuses a dashboard list can filter by: the interface's, plus `open` (a session nobody has paid yet). */
export const listStatuses = [...paymentStatuses, "open"] as const;
export type ListStatus = (typeof listStatuses)[number];

const day = dayParam();
const cursor = z.string().regex(/^cs_[0-9A-Za-z]{1,64}$/, "Not a payment cursor");
const empty = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : typeof v === "string" ? v.trim() : v);

export const paymentFiltersSchema = z
  .object({
    q: z.preprocess(empty, z.string().max(200, "At most 200 characters").refine(isSafeText, "Must not contain NUL characters or unpaired surrogates").optional()),
    status: z.preprocess(empty, z.enum(listStatuses, { error: "Unknown status" }).optional()),
    method: z.preprocess(empty, z.string().regex(/^[a-z0-9_]{1,40}$/, "Unknown payment method").optional()),
    dispute: z.preprocess(empty, z.enum(paymentDisputeFilters, { error: "Unknown dispute filter" }).optional()),
    from: z.preprocess(empty, day.optional()),
    to: z.preprocess(empty, day.optional()),
    after: z.preprocess(empty, cursor.optional()),
    before: z.preprocess(empty, cursor.optional()),
  })
  .refine((f) => !(f.from && f.to && f.from > f.to), { path: ["to"], message: "The end date is before the start date" })
  .refine((f) => !(f.after && f.before), { path: ["after"], message: "Page forwards or backwards, not both" });

export type PaymentFilters = z.infer<typeof paymentFiltersSchema>;

export type ParsedFilters =
  | { ok: true; filters: PaymentFilters }
  | { ok: false; error: "validation_failed"; message: string; fields: Record<string, string[]>; filters: PaymentFilters };

/**
 * The payments page's query string as filters. Bad input never throws: the page shows the
 * message and lists without the bad fields.
 */
export function parsePaymentFilters(params: Record<string, string | string[] | undefined>): ParsedFilters {
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const raw = Object.fromEntries(Object.keys(paymentFiltersSchema.shape ?? {}).map((k) => [k, first(params[k])]));
  const result = paymentFiltersSchema.safeParse(raw);
  if (result.success) return { ok: true, filters: result.data };
  const fields: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const key = String(issue.path[0] ?? "filters");
    (fields[key] ??= []).push(issue.message);
  }
  // Keep what is valid on its own.
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (fields[key]) continue;
    const single = paymentFiltersSchema.safeParse({ [key]: value });
    if (single.success) kept[key] = (single.data as Record<string, unknown>)[key];
  }
  const message = Object.entries(fields)
    .map(([key, messages]) => `${key}: ${messages.join(", ")}`)
    .join("; ");
  return { ok: false, error: "validation_failed", message, fields, filters: kept as PaymentFilters };
}
