import { csvHeaders } from "@/lib/api/exports";
import { isExportKind, parseExportQuery } from "@/lib/exports/export-filters";
import { streamExport } from "@/lib/exports/stream-export";
import { getDb } from "@/lib/db";
import { ValidationError } from "@/lib/errors";
import { requireStaffFor, StaffForbiddenError } from "@/lib/staff/current-staff";

// GET /dashboard/exports/{payments|refunds|subscriptions|payout-users|ledger-entries}.csv: the
// list's CSV for signed-in staff of the business shown, the same service and query as the API's
// GET /exports/{kind}.csv (docs/api/exports.md).
export async function GET(request: Request, { params }: { params: Promise<{ file: string }> }): Promise<Response> {
  const kind = (await params).file.replace(/\.csv$/, "");
  if (!(await params).file.endsWith(".csv") || !isExportKind(kind))
    return Response.json({ error: "not_found", message: "No such export" }, { status: 404 });
  let staff;
  try {
    staff = await requireStaffFor("read");
  } catch (error) {
    if (error instanceof StaffForbiddenError) return Response.json({ error: "forbidden", message: error.message }, { status: 403 });
    throw error; // the redirect to the sign-in page
  }
  try {
    const query = parseExportQuery(kind, new URL(request.url).searchParams);
    return new Response(await streamExport(await getDb(), staff.businessId, kind, query), { headers: csvHeaders(kind) });
  } catch (error) {
    if (error instanceof ValidationError) return Response.json(error.fields, { status: 400 });
    throw error;
  }
}
