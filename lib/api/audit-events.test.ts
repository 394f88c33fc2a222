import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { AuditEventList } from "@/lib/audit/audit-schemas";
import { recordAudit, type AuditAction } from "@/lib/audit/record-audit";
import { expectFieldErrors } from "@/test/api-assertions";
import { api, createTestBusiness, testDb } from "@/test/helpers";

// GET /audit-events: newest first, cursor paging as the other lists, filters by action and date.

const actor = { type: "user" as const, userId: "usr_x", email: "olga@example.com", ip: "192.0.2.1", userAgent: "ua" };

async function seeded() {
  const biz = await createTestBusiness();
  const actions: AuditAction[] = ["api_key.create", "api_key.roll", "api_key.revoke", "api_key.create", "webhook_token.rotate"];
  for (const action of actions)
    await recordAudit(testDb(), { businessId: biz.business.id, action, target: { type: "api_key", id: "key_1" }, actor });
  return biz;
}

const list = (key: string, query = "") => api<AuditEventList>("GET", `/audit-events${query}`, { key });

describe("GET /audit-events", () => {
  it("pages newest first with limit and starting_after; another business's events are not shown", async () => {
    const biz = await seeded();
    await seeded(); // another business
    const all = await list(biz.secretKey, "?limit=100");
    expect(all.status).toBe(200);
    expect(all.body.data.map((e) => e.action)).toEqual(["webhook_token.rotate", "api_key.create", "api_key.revoke", "api_key.roll", "api_key.create"]);
    expect(all.body.has_more).toBe(false);
    expect(all.body.data[0]).toMatchObject({ object: "audit_event", actor: { type: "user", email: "olga@example.com" }, target: { type: "api_key", id: "key_1" }, changes: {}, ip: "192.0.2.1", user_agent: "ua" });

    const first = await list(biz.secretKey, "?limit=2");
    expect(first.body).toMatchObject({ has_more: true });
    const second = await list(biz.secretKey, `?limit=2&starting_after=${first.body.data[1]!.id}`);
    const third = await list(biz.secretKey, `?limit=2&starting_after=${second.body.data[1]!.id}`);
    expect([...first.body.data, ...second.body.data, ...third.body.data]).toEqual(all.body.data);
    expect(third.body.has_more).toBe(false);
    expect((await list(biz.secretKey)).body.data).toHaveLength(5); // default limit 10
  });

  it("filters by action and by created_from / created_until", async () => {
    const biz = await seeded();
    const created = await list(biz.secretKey, "?action=api_key.create");
    expect(created.body.data.map((e) => e.action)).toEqual(["api_key.create", "api_key.create"]);
    // Move one event into the past (a test-only bypass of the append-only trigger).
    const oldest = created.body.data[1]!.id;
    await testDb().transaction(async (tx) => {
      await tx.execute(sql`ALTER TABLE audit_events DISABLE TRIGGER audit_events_append_only`);
      await tx.execute(sql`UPDATE audit_events SET created_at = '2026-01-15T10:00:00Z' WHERE id = ${oldest}`);
      await tx.execute(sql`ALTER TABLE audit_events ENABLE TRIGGER audit_events_append_only`);
    });
    expect((await list(biz.secretKey, "?created_until=2026-02-01")).body.data.map((e) => e.id)).toEqual([oldest]);
    expect((await list(biz.secretKey, "?created_from=2026-01-15T10:00:00Z&created_until=2026-01-15T10:00:01Z")).body.data.map((e) => e.id)).toEqual([oldest]);
    expect((await list(biz.secretKey, "?created_from=2026-02-01&action=api_key.create")).body.data).toHaveLength(1);
    expect((await list(biz.secretKey, "?created_from=2999-01-01")).body.data).toEqual([]);
  });

  it.each([
    ["?action=payment.delete", ["action"]],
    ["?created_from=2026-13-01", ["created_from"]],
    ["?created_from=2026-11-02&created_until=2026-11-01", ["created_until"]],
    ["?limit=0", ["limit"]],
    ["?starting_after=cs_1", ["starting_after"]],
  ])("%s is a 400 naming the parameter", async (query, fields) => {
    const biz = await createTestBusiness();
    expectFieldErrors(await list(biz.secretKey, query), fields);
  });

  it("secret key only", async () => {
    const biz = await createTestBusiness();
    expect((await list(biz.publicKey)).status).toBe(401);
    expect((await api("GET", "/audit-events")).status).toBe(401);
  });
});
