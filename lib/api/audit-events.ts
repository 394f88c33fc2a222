import { listAuditEvents, parseAuditEventsQuery } from "@/lib/audit/list-audit-events";
import { apiHandler } from "@/lib/api/handler";
import { json } from "@/lib/http/respond";

// GET /audit-events
export const getAuditEvents = apiHandler({
  auth: "secret",
  handle: async ({ request, db, caller }) =>
    json(200, await listAuditEvents(db, caller.business.id, parseAuditEventsQuery(new URL(request.url).searchParams))),
});
