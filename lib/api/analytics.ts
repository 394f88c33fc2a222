import { getRevenueAnalytics, parseRevenueQuery } from "@/lib/analytics/get-revenue-analytics";
import { apiHandler } from "@/lib/api/handler";
import { json } from "@/lib/http/respond";

// GET /analytics/revenue
export const getRevenueAnalyticsHandler = apiHandler({
  auth: "secret",
  handle: async ({ request, db, caller }) =>
    json(
      200,
      await getRevenueAnalytics(db, caller.business, parseRevenueQuery(new URL(request.url).searchParams)),
    ),
});
