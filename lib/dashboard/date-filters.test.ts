import { describe, expect, it } from "vitest";
import { listAuditEvents } from "@/lib/audit/list-audit-events";
import type { Staff } from "@/lib/staff/current-staff";
import { createTestBusiness, testDb } from "@/test/helpers";
import { auditServiceFilters, parseAuditPageFilters } from "./audit-filters";
import { exportHref } from "./export-links";
import { listPayments } from "./list-payments";
import { parsePaymentFilters } from "./payment-filters";
import { resendFailedWebhookEventsAs } from "./webhook-actions";

// The dashboard's date filters share the API's range (1970-01-01 to 9999-12-31): a day out of it
// is shown and ignored, like other bad filters, and the range's own days list without an error.

const outOfRange = ["0000-01-01", "1969-12-31"];

describe("dashboard date filters", () => {
  it.each(outOfRange)("payments: from or to %s is named and ignored", (day) => {
    for (const field of ["from", "to"]) {
      const parsed = parsePaymentFilters({ [field]: day });
      expect(parsed.ok).toBe(false);
      if (parsed.ok) continue;
      expect(parsed.fields[field]).toEqual(["Use a date between 1970-01-01 and 9999-12-31"]);
      expect(parsed.filters).toEqual({});
    }
  });

  it.each(outOfRange)("audit log: from or to %s is named and ignored", (day) => {
    for (const field of ["from", "to"]) {
      const parsed = parseAuditPageFilters({ [field]: day });
      expect(parsed.fields[field]).toEqual(["Use a date between 1970-01-01 and 9999-12-31"]);
      expect(parsed.filters[field as "from" | "to"]).toBeUndefined();
    }
  });

  it("the range's first and last days list payments and audit events, and export without a bound past 9999", async () => {
    const biz = await createTestBusiness();
    const payments = parsePaymentFilters({ from: "1970-01-01", to: "9999-12-31" });
    expect(payments.ok).toBe(true);
    if (!payments.ok) return;
    await expect(listPayments(testDb(), biz.business.id, payments.filters)).resolves.toMatchObject({ data: [] });

    const audit = parseAuditPageFilters({ from: "1970-01-01", to: "9999-12-31" });
    expect(audit.message).toBeNull();
    const service = auditServiceFilters(audit.filters, 10);
    expect(service).toMatchObject({ created_from: "1970-01-01T00:00:00.000Z", created_until: undefined });
    await expect(listAuditEvents(testDb(), biz.business.id, service)).resolves.toMatchObject({ data: [] });
    expect(auditServiceFilters({ to: "2026-11-30" }, 10).created_until).toBe("2026-12-01T00:00:00.000Z");

    expect(exportHref("payments", { from: "1970-01-01", to: "9999-12-31" })).toBe("/dashboard/exports/payments.csv?created_from=1970-01-01");
    expect(exportHref("refunds", { to: "2026-11-30" })).toBe("/dashboard/exports/refunds.csv?created_until=2026-12-01");
  });

  it("webhooks: resending failures since a time out of the range is refused, field by field", async () => {
    const biz = await createTestBusiness({ webhookUrl: "https://example.com/hook" });
    const manager: Staff = {
      userId: "usr_manager",
      email: "manager@example.com",
      isAdmin: false,
      businessId: biz.business.id,
      role: "manager",
      memberships: [{ businessId: biz.business.id, businessName: biz.business.name, mode: "sandbox", role: "manager" }],
    };
    for (const since of ["0000-01-01T00:00", "1969-12-31T23:59"]) {
      const result = await resendFailedWebhookEventsAs(testDb(), manager, { business: biz.business.id, since });
      expect(result).toMatchObject({ ok: false, fields: { since: ["Enter a time between 1970-01-01 and 9999-12-31"] } });
    }
    const ok = await resendFailedWebhookEventsAs(testDb(), manager, { business: biz.business.id, since: "1970-01-01T00:00" });
    expect(ok).toMatchObject({ ok: true, data: 0 });
  });
});
