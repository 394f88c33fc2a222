import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { AuditEventListSchema, auditEventsQuerySchema } from "@/lib/audit/audit-schemas";
import { exportColumns } from "@/lib/exports/export-columns";
import { exportKinds, exportQuerySchemas } from "@/lib/exports/export-filters";
import { errorResponses, jsonResponse, security } from "../common";

const titles: Record<(typeof exportKinds)[number], { id: string; summary: string }> = {
  payments: { id: "exportPayments", summary: "Export payments as CSV" },
  refunds: { id: "exportRefunds", summary: "Export refunds as CSV" },
  subscriptions: { id: "exportSubscriptions", summary: "Export subscriptions as CSV" },
  "payout-users": { id: "exportPayoutUsers", summary: "Export payout users as CSV" },
  "ledger-entries": { id: "exportLedgerEntries", summary: "Export ledger entries as CSV" },
};

/** The audit log and the CSV exports (secret key only). */
export function registerAuditAndExports(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: "/audit-events",
    tags: ["Audit log"],
    operationId: "listAuditEvents",
    summary: "List audit events",
    description:
      "Each change made by the business's staff or secret keys, newest first, `limit` per page (1 to 100, default 10) older than the `starting_after` id. See docs/audit.md for the actions.",
    security: security.secret,
    request: {
      query: auditEventsQuerySchema.meta({ description: "Filters and paging of GET /audit-events." }),
    },
    responses: {
      200: jsonResponse("A page of audit events.", AuditEventListSchema),
      400: errorResponses.invalidFields,
      401: errorResponses.unauthorized,
    },
  });

  for (const kind of exportKinds) {
    registry.registerPath({
      method: "get",
      path: `/exports/${kind}.csv`,
      tags: ["Exports"],
      operationId: titles[kind].id,
      summary: titles[kind].summary,
      description: `RFC 4180 CSV, streamed, oldest first, header row first: \`${exportColumns[kind].join(",")}\`. Amounts in cents; times ISO 8601 UTC. A text cell starting with \`=\`, \`+\`, \`-\`, \`@\`, a tab or a carriage return is prefixed with \`'\` so spreadsheets do not run it as a formula.`,
      security: security.secret,
      request: { query: exportQuerySchemas[kind].meta({ description: `Filters of the ${kind} export.` }) },
      responses: {
        200: {
          description: "The CSV file (`Content-Disposition: attachment`).",
          content: { "text/csv": { schema: z.string().meta({ description: "CSV, header row first." }) } },
        },
        400: errorResponses.invalidFields,
        401: errorResponses.unauthorized,
      },
    });
  }
}
