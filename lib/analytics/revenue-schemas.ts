import { z } from "zod";
import { earliestDay, instantParam, latestDay } from "@/lib/http/instant-param";
import { maxBuckets, revenueIntervals } from "./revenue-buckets";

/** Query of GET /analytics/revenue; the range's defaults are the business's clock's (see the service). */
export const revenueQuerySchema = z.object({
  from: instantParam("from")
    .optional()
    .meta({
      description: `Start of the range, inclusive (a date means its midnight UTC; ${earliestDay} to ${latestDay}). Default: 30 days, 12 weeks or 12 months before \`until\`, at a calendar start.`,
      example: "2026-01-01",
    }),
  until: instantParam("until").optional().meta({
    description: `End of the range, exclusive (a date means its midnight UTC). Default: the business's now.`,
    example: "2027-01-01",
  }),
  interval: z
    .enum(revenueIntervals, { error: `interval must be one of ${revenueIntervals.join(", ")}` })
    .optional()
    .meta({
      description: `Bucket size: UTC calendar days, ISO weeks (from Monday) or months. Default \`month\`. At most ${maxBuckets} buckets per request.`,
    }),
});
export type RevenueQuery = z.infer<typeof revenueQuerySchema>;

const cents = (description: string) =>
  z
    .number()
    .int()
    .meta({ description: `${description} In cents.` });
const count = (description: string) => z.number().int().min(0).meta({ description });

/** The figures of one bucket, or of the whole range (`totals`); docs/analytics.md defines each. */
const figures = {
  gross_volume: cents(
    "What customers paid: the amounts of payments that succeeded, dated when they completed.",
  ),
  refunded: cents(
    "Refunds (pending or done, not failed) of payments counted in gross volume, dated when they were made.",
  ),
  disputed: cents(
    "Funds disputes withdrew (amount and dispute fee), less what won disputes reinstated, dated when posted to the ledger.",
  ),
  fees: cents("Kassa's fees on the payments counted in gross volume."),
  net_volume: cents("gross_volume − refunded − disputed − fees."),
  payments: count("Number of payments counted in gross volume."),
  mrr: cents(
    "Monthly recurring revenue at the end of the bucket: every plan counted (first payment made, not canceled), past_due ones included, its price normalised to a month.",
  ),
  mrr_new: cents("MRR added by plans that started in the bucket (not reactivations)."),
  mrr_churned: cents("MRR lost by plans canceled in the bucket (a positive number)."),
  mrr_reactivated: cents(
    "MRR added by plans that started in the bucket for a customer whose earlier plan had ended.",
  ),
  mrr_past_due: cents(
    "Part of `mrr` from plans past due (a renewal failed, not yet paid) at the end of the bucket.",
  ),
  active_subscriptions: count("Plans counted at the end of the bucket (past_due included)."),
  past_due_subscriptions: count("Part of `active_subscriptions` past due at the end of the bucket."),
  new_subscriptions: count("Plans that started in the bucket (reactivations included)."),
  churned_subscriptions: count("Plans canceled in the bucket: churned_voluntary + churned_involuntary."),
  churned_voluntary: count(
    "Plans ended by the merchant, the customer, support or from the provider's dashboard.",
  ),
  churned_involuntary: count("Plans the provider ended because renewal payments kept failing."),
  renewals_failed: count(
    "Renewals whose charge failed (once per renewal, however many retries), dated when the renewal opened.",
  ),
  renewals_recovered: count("Renewals that had failed and were later paid, dated when paid."),
};

const BucketSchema = z
  .strictObject({
    start: z
      .string()
      .meta({
        description: "Start of the bucket, inclusive (ISO 8601 UTC).",
        example: "2026-11-01T00:00:00.000Z",
      }),
    end: z
      .string()
      .meta({
        description: "End of the bucket, exclusive (ISO 8601 UTC).",
        example: "2026-12-01T00:00:00.000Z",
      }),
    ...figures,
  })
  .meta({
    id: "RevenueBucket",
    description: "One bucket of the series; the first and last are clipped to the range.",
  });
export type RevenueBucket = z.infer<typeof BucketSchema>;

export const RevenueAnalyticsSchema = z
  .strictObject({
    currency: z.literal("USD"),
    interval: z.enum(revenueIntervals),
    data: z.array(BucketSchema).meta({ description: "The buckets, oldest first." }),
    totals: BucketSchema,
  })
  .meta({
    id: "RevenueAnalytics",
    description:
      "Revenue and subscription figures per bucket (docs/analytics.md). `totals` covers the whole range: flows (volumes, counts, MRR movements) summed over the buckets; `mrr`, `mrr_past_due`, `active_subscriptions` and `past_due_subscriptions` at the range's end.",
  });
export type RevenueAnalytics = z.infer<typeof RevenueAnalyticsSchema>;

/** Every figure of a bucket, in the order of the API (and of the CSV). */
export const revenueFigureNames = Object.keys(figures) as (keyof typeof figures)[];
export type RevenueFigures = { [K in keyof typeof figures]: number };
