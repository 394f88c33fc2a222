import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditEvents } from "@/db/schema";
import { api, createTestBusiness, testDb } from "@/test/helpers";

// Issue 41, item 24: a webhook URL's user:password (sent as Basic auth) is a secret: the audit
// log records the URL without it.

describe("a webhook URL with credentials in the audit log", () => {
  it("is recorded without its user name and password", async () => {
    const biz = await createTestBusiness();
    const res = await api("POST", "/webhooks/endpoint", {
      key: biz.secretKey,
      body: { url: "https://hook-user:s3cret-pass@hooks.example.com/kassa" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [event] = await testDb().select().from(auditEvents).where(eq(auditEvents.businessId, biz.business.id));
    expect(event).toMatchObject({ action: "webhook_endpoint.update" });
    expect(JSON.stringify(event!.changes)).not.toMatch(/s3cret-pass|hook-user/);
    expect(event!.changes.url).toMatchObject({ to: "https://hooks.example.com/kassa" });
  });
});
