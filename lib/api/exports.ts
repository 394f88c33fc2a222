import { parseExportQuery, type ExportKind } from "@/lib/exports/export-filters";
import { exportFileName, streamExport } from "@/lib/exports/stream-export";
import { apiHandler, type ApiHandler } from "@/lib/api/handler";

/** The CSV download's headers: a file, never cached, never sniffed as HTML. */
export function csvHeaders(kind: ExportKind): Record<string, string> {
  return {
    "content-type": "text/csv; charset=utf-8",
    "content-disposition": `attachment; filename="${exportFileName(kind)}"`,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  };
}

// GET /exports/{payments|refunds|subscriptions|payout-users|ledger-entries}.csv
function exportHandler(kind: ExportKind): ApiHandler {
  return apiHandler({
    auth: "secret",
    handle: async ({ request, db, caller }) => {
      const query = parseExportQuery(kind, new URL(request.url).searchParams);
      const body = await streamExport(db, caller.business.id, kind, query);
      return new Response(body, { status: 200, headers: csvHeaders(kind) });
    },
  });
}

export const getPaymentsExport = exportHandler("payments");
export const getRefundsExport = exportHandler("refunds");
export const getSubscriptionsExport = exportHandler("subscriptions");
export const getPayoutUsersExport = exportHandler("payout-users");
export const getLedgerEntriesExport = exportHandler("ledger-entries");
