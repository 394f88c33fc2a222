import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessions } from "@/db/schema";
import { stopSandboxEmulator } from "@/lib/providers/stripe/sandbox-emulator";
import { api, createTestBusiness, sessionBody, testDb } from "@/test/helpers";

type Biz = Awaited<ReturnType<typeof createTestBusiness>>;
let biz: Biz;
beforeAll(async () => {
  biz = await createTestBusiness();
});
// Plan sessions check the business's Stripe endpoint: the emulator starts on first use.
afterAll(() => stopSandboxEmulator());

const key = (name: string) => ({ "Idempotency-Key": `${name}-${Math.random().toString(36).slice(2)}` });

async function sessionsWithOrder(businessId: string, orderId: string) {
  return testDb()
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.businessId, businessId), eq(sessions.orderId, orderId)));
}

describe("Idempotency-Key on POST /session", () => {
  it("creates a plan session with a key (its Stripe set-up check runs before the key's transaction) and replays it", async () => {
    // A fresh business: its first plan session calls Stripe (the emulator) for the set-up check.
    const fresh = await createTestBusiness();
    const headers = key("plan");
    const body = sessionBody({ subscription: { interval: "month" } });
    const first = await api("POST", "/session", { key: fresh.secretKey, body, headers });
    expect(first.status).toBe(201);
    const again = await api("POST", "/session", { key: fresh.secretKey, body, headers });
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await sessionsWithOrder(fresh.business.id, body.order_id as string)).toHaveLength(1);
  });

  it.each(["secret", "public"] as const)(
    "replays the first response for a retry with the same key and body (%s key), creating one session",
    async (kind) => {
      const k = kind === "secret" ? biz.secretKey : biz.publicKey;
      const headers = key(`replay-${kind}`);
      const body = sessionBody();
      const first = await api("POST", "/session", { key: k, body, headers });
      const again = await api("POST", "/session", { key: k, body, headers });
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(first.headers.get("idempotent-replayed")).toBeNull();
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(await sessionsWithOrder(biz.business.id, body.order_id as string)).toHaveLength(1);
    },
  );

  it("answers 409 for the same key with another body, and creates nothing", async () => {
    const headers = key("conflict");
    const body = sessionBody();
    expect((await api("POST", "/session", { key: biz.secretKey, body, headers })).status).toBe(201);
    const other = sessionBody({ amount: 2600 });
    const res = await api("POST", "/session", { key: biz.secretKey, body: other, headers });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: "idempotency_key_reused", message: expect.any(String) });
    expect(await sessionsWithOrder(biz.business.id, other.order_id as string)).toHaveLength(0);
  });

  it("scopes keys per business and per caller: secret key, public key, payer IP", async () => {
    const two = await createTestBusiness();
    const headers = key("scope");
    const a = await api("POST", "/session", { key: biz.secretKey, body: sessionBody(), headers });
    const b = await api("POST", "/session", { key: two.secretKey, body: sessionBody(), headers });
    const c = await api("POST", "/session", { key: biz.publicKey, body: sessionBody(), headers, ip: "198.51.100.1" });
    const d = await api("POST", "/session", { key: biz.publicKey, body: sessionBody(), headers, ip: "198.51.100.2" });
    expect([a.status, b.status, c.status, d.status]).toEqual([201, 201, 201, 201]);
    expect(new Set([a, b, c, d].map((r) => r.body.session_id)).size).toBe(4);
  });

  it("replays a stored refusal, but a validation failure leaves the key free", async () => {
    const headers = key("refusal");
    const subscription = sessionBody({ subscription: { interval: "month" } });
    const refused = await api("POST", "/session", { key: biz.publicKey, body: subscription, headers });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    const retry = await api("POST", "/session", { key: biz.publicKey, body: subscription, headers });
    expect(retry.status).toBe(refused.status);
    expect(retry.body).toEqual(refused.body);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");

    const fresh = key("invalid");
    const body = sessionBody();
    const invalid = await api("POST", "/session", { key: biz.secretKey, body: { ...body, amount: -5 }, headers: fresh });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ amount: expect.any(Array) });
    expect((await api("POST", "/session", { key: biz.secretKey, body, headers: fresh })).status).toBe(201);
  });

  it("answers an order id reserved for a plan's renewal as without a key, and leaves the key free", async () => {
    const stem = `keyed-plan-${Math.random().toString(36).slice(2)}`;
    const plan = sessionBody({ order_id: stem, subscription: { interval: "month" } });
    expect((await api("POST", "/session", { key: biz.secretKey, body: plan })).status).toBe(201);
    const headers = key("reserved");
    const reserved = sessionBody({ order_id: `${stem}-2` });
    for (let attempt = 0; attempt < 2; attempt++) {
      const res = await api("POST", "/session", { key: biz.secretKey, body: reserved, headers });
      expect(res.status).toBe(400);
      expect(String((res.body as Record<string, string[]>).order_id)).toContain(stem);
      expect(res.headers.get("idempotent-replayed")).toBeNull();
    }
    expect(await sessionsWithOrder(biz.business.id, `${stem}-2`)).toHaveLength(0);
    // The key was not spent on the refusal: a corrected request with it creates the session.
    const corrected = sessionBody({ order_id: `${stem}-x2` });
    expect((await api("POST", "/session", { key: biz.secretKey, body: corrected, headers })).status).toBe(201);
  });

  it("refuses an unusable key with the payouts' 400, creating nothing", async () => {
    for (const value of ["x".repeat(256), "has space", "é"]) {
      const body = sessionBody();
      const res = await api("POST", "/session", { key: biz.publicKey, body, headers: { "Idempotency-Key": value } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: "invalid_idempotency_key", message: expect.any(String) });
      expect(await sessionsWithOrder(biz.business.id, body.order_id as string)).toHaveLength(0);
    }
  });

  it("answers metadata nested 50,000 levels deep as it does without a key: the field's 400, not a crash", async () => {
    const deep = `${"[".repeat(50_000)}${"]".repeat(50_000)}`;
    const raw = JSON.stringify(sessionBody()).replace(/}$/, `,"metadata":{"x":${deep}}}`);
    const keyed = await api("POST", "/session", { key: biz.secretKey, rawBody: raw, headers: key("deep") });
    const keyless = await api("POST", "/session", { key: biz.secretKey, rawBody: raw });
    expect(keyed.status).toBe(400);
    expect(keyed.body).toEqual({ metadata: [expect.stringContaining("nest")] });
    expect(keyless.body).toEqual(keyed.body);
  });

  it("creates one session for 20 concurrent retries, all answered the first response", async () => {
    const headers = key("race");
    const body = sessionBody();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => api("POST", "/session", { key: biz.publicKey, body, headers })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    expect(new Set(answers.map((a) => a.body.session_id)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get("idempotent-replayed") === "true")).toHaveLength(19);
    expect(await sessionsWithOrder(biz.business.id, body.order_id as string)).toHaveLength(1);
  });
});
