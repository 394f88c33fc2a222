import { describe, expect, it } from "vitest";
import { eq, inArray } from "drizzle-orm";
import { openDatabase, sql } from "@/db/client";
import { apiKeys, rateLimits } from "@/db/schema";
import { createApiKey } from "@/lib/auth/api-keys";
import { installDatabase } from "@/lib/db";
import { resetEnv } from "@/lib/env";
import { isErrorMessage } from "@/test/api-assertions";
import { api, createTestBusiness, sessionBody, testDb, testHandle, type ApiResult, withTestEnv } from "@/test/helpers";

const limits = { RATE_LIMIT_SESSION_PUBLIC: "3", RATE_LIMIT_SESSION_SECRET: "4", RATE_LIMIT_WINDOW_SECONDS: "60" };
withTestEnv(limits);

const post = (key: string, ip = "203.0.113.10") => api("POST", "/session", { key, body: sessionBody(), ip });

function expect429(res: ApiResult, type: "ip" | "api_key") {
  expect(res.status).toBe(429);
  expect(Object.keys(res.body).sort()).toEqual(["error", "message", "retry_after", "type"]);
  expect(res.body.error).toBe("rate_limit_exceeded");
  expect(typeof res.body.message).toBe("string");
  expect(res.body.type).toBe(type);
  const retryAfter = res.body.retry_after as number;
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(res.headers.get("retry-after")).toBe(String(retryAfter));
}

describe("rate limit of POST /session", () => {
  it("public key: per client IP; the next request answers 429 type ip with Retry-After", async () => {
    const biz = await createTestBusiness();
    for (let i = 0; i < 3; i++) expect((await post(biz.publicKey, "198.51.100.1")).status).toBe(201);
    expect429(await post(biz.publicKey, "198.51.100.1"), "ip");
    // Refused before the body is even read: a bad body is limited too, and nothing is created.
    expect429(await api("POST", "/session", { key: biz.publicKey, rawBody: "{", ip: "198.51.100.1" }), "ip");
    // Another IP is not limited.
    expect((await post(biz.publicKey, "198.51.100.2")).status).toBe(201);
    // Nor is the business's secret key.
    expect((await post(biz.secretKey, "198.51.100.1")).status).toBe(201);
  });

  it("public key: the same IP at another business has its own allowance", async () => {
    const a = await createTestBusiness();
    const b = await createTestBusiness();
    for (let i = 0; i < 3; i++) expect((await post(a.publicKey, "198.51.100.3")).status).toBe(201);
    expect429(await post(a.publicKey, "198.51.100.3"), "ip");
    expect((await post(b.publicKey, "198.51.100.3")).status).toBe(201);
  });

  it("secret key: per key, whatever the IP; another key is not limited", async () => {
    const biz = await createTestBusiness();
    for (let i = 0; i < 4; i++) expect((await post(biz.secretKey, `198.51.100.${10 + i}`)).status).toBe(201);
    expect429(await post(biz.secretKey, "198.51.100.99"), "api_key");
    const second = await createApiKey(testDb(), biz.business, "secret");
    expect((await post(second.key)).status).toBe(201);
  });

  it("counts concurrent requests exactly", async () => {
    const biz = await createTestBusiness();
    const results = await Promise.all(Array.from({ length: 8 }, () => post(biz.secretKey)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(4);
    for (const r of results.filter((r) => r.status !== 201)) expect429(r, "api_key");
  });

  it("429 body is the interface's, never a plain {error, message}", async () => {
    const biz = await createTestBusiness();
    for (let i = 0; i < 4; i++) await post(biz.secretKey);
    const res = await post(biz.secretKey);
    expect(isErrorMessage(res.body)).toBe(false);
    expect429(res, "api_key");
  });

  it("allows requests again once the window has passed", async () => {
    // A minute's window (a 1 s one could pass between two requests on a busy machine), then its end
    // set in the past, as if it had run out: no sleep guessing when it has.
    process.env.RATE_LIMIT_WINDOW_SECONDS = "60";
    resetEnv();
    try {
      const biz = await createTestBusiness();
      for (let i = 0; i < 4; i++) expect((await post(biz.secretKey)).status).toBe(201);
      const limited = await post(biz.secretKey);
      expect429(limited, "api_key");
      const keys = await testDb().select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.businessId, biz.business.id));
      await testDb()
        .update(rateLimits)
        .set({ expire: sql`now() - interval '1 second'` })
        .where(inArray(rateLimits.key, keys.map((k) => `session:key:${k.id}`)));
      expect((await post(biz.secretKey)).status).toBe(201);
    } finally {
      process.env.RATE_LIMIT_WINDOW_SECONDS = limits.RATE_LIMIT_WINDOW_SECONDS;
      resetEnv();
    }
  });

  it("is shared by two app instances (two database handles) on the same PostgreSQL database", async (ctx) => {
    const url = (testHandle() as { url?: string }).url;
    ctx.skip(!url, "needs PostgreSQL (DATABASE_URL): one embedded PGlite database cannot be opened by two handles");
    const biz = await createTestBusiness();
    const first = testHandle();
    const second = await openDatabase({ kind: "postgres", url: url!, max: 2 });
    try {
      // Alternate instances: 2 + 2 = the secret limit of 4, whichever instance counts them.
      for (const handle of [first, second, first, second]) {
        installDatabase(handle);
        expect((await post(biz.secretKey)).status).toBe(201);
      }
      installDatabase(second);
      expect429(await post(biz.secretKey), "api_key");
      installDatabase(first);
      expect429(await post(biz.secretKey), "api_key");
    } finally {
      installDatabase(first);
      await second.close();
    }
  });
});
