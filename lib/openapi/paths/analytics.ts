import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { RevenueAnalyticsSchema, revenueQuerySchema } from "@/lib/analytics/revenue-schemas";
import { errorResponses, jsonResponse, security } from "../common";

/** Revenue analytics (secret key only; docs/analytics.md defines every figure). */
export function registerAnalytics(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: "/analytics/revenue",
    tags: ["Analytics"],
    operationId: "getRevenueAnalytics",
    summary: "Revenue and subscription figures per day, week or month",
    description:
      "Gross and net volume, refunds, disputes, fees, MRR and its movements, active and churned plans, failed and recovered renewals, per UTC calendar bucket of [from, until); the first and last buckets are clipped to the range. Computed from the ledger, the payments and the subscription records on the business's clock (a sandbox's may run ahead). At most 400 buckets: more is a 400 naming `interval`. See docs/analytics.md for every figure's definition and its edge cases.",
    security: security.secret,
    request: {
      query: revenueQuerySchema.meta({ description: "Range and bucket size of GET /analytics/revenue." }),
    },
    responses: {
      200: jsonResponse("The series and its totals.", RevenueAnalyticsSchema),
      400: errorResponses.invalidFields,
      401: errorResponses.unauthorized,
    },
  });
}
