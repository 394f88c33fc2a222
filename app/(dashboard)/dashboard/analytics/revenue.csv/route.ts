import { revenueCsv } from "@/lib/analytics/revenue-csv";
import { getDb } from "@/lib/db";
import { getRevenueView, parseRevenueFilters } from "@/lib/dashboard/revenue-view";
import { requireStaffFor, StaffForbiddenError } from "@/lib/staff/current-staff";

// GET /dashboard/analytics/revenue.csv?from&to&interval: the overview's revenue series as CSV for
// signed-in staff of the business shown, the same service as GET /analytics/revenue
// (docs/analytics.md). A range the overview would refuse is a 400 naming why, never a 500.
export async function GET(request: Request): Promise<Response> {
  let staff;
  try {
    staff = await requireStaffFor("read");
  } catch (error) {
    if (error instanceof StaffForbiddenError)
      return Response.json({ error: "forbidden", message: error.message }, { status: 403 });
    throw error; // the redirect to the sign-in page
  }
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const view = await getRevenueView(await getDb(), staff.businessId, params);
  const problem = parseRevenueFilters(params).problem ?? view.problem;
  if (problem !== null) return Response.json({ error: "invalid_range", message: problem }, { status: 400 });
  const { interval } = view.analytics;
  const name = `revenue-by-${interval}-${view.analytics.data[0]!.start.slice(0, 10)}-to-${view.analytics.totals.end.slice(0, 10)}.csv`;
  return new Response(revenueCsv(view.analytics), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${name}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
