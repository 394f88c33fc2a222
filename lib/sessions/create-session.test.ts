import { describe, expect, it } from "vitest";
import { api, createTestBusiness, sessionBody } from "@/test/helpers";

describe("POST /session (smoke)", () => {
  it("creates a session and reads it back", async () => {
    const biz = await createTestBusiness();
    const created = await api("POST", "/session", { key: biz.secretKey, body: sessionBody() });
    expect(created.status).toBe(201);
    expect(created.body.session_id).toMatch(/^cs_/);
    const read = await api("GET", `/payment/${created.body.session_id as string}`, { key: biz.secretKey });
    expect(read.status).toBe(200);
    expect(read.body.status).toBeNull();
    expect(read.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });
});
