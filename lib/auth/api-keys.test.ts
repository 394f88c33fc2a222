import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { createApiKey, type KeyKind } from "@/lib/auth/api-keys";
import { revokeApiKey } from "@/lib/auth/revoke-api-key";
import type * as Crypto from "@/lib/crypto";
import { UnauthorizedError } from "@/lib/errors";
import { newId, randomToken } from "@/lib/ids";
import { stableHeaders as allStableHeaders } from "@/test/api-assertions";
import { api, createTestBusiness, sessionBody, testDb } from "@/test/helpers";

/**
 * The headers a 401 must share. CORS headers are left out: they follow the route (public-key
 * endpoints allow browsers) and the key's written prefix (`sk_` gets none), never whether a key
 * is valid, so they tell an attacker nothing (lib/api/cors.test.ts pins them).
 */
const stableHeaders = (headers: Headers) => allStableHeaders(headers).filter(([name]) => !name.startsWith("access-control-"));

// Counts digests without changing them: the only stand-in in this file.
// Files share a worker's modules (vitest.config.ts): a fresh graph lets the stand-in reach them.
vi.hoisted(() => vi.resetModules());
const digests = vi.hoisted(() => ({ count: 0 }));
vi.mock("@/lib/crypto", async (importOriginal) => {
  const actual = await importOriginal<typeof Crypto>();
  return {
    ...actual,
    sha256Hex: (value: string) => {
      digests.count += 1;
      return actual.sha256Hex(value);
    },
  };
});

type Biz = Awaited<ReturnType<typeof createTestBusiness>>;
let biz: Biz;
let revoked: Biz;
let expiredKey: string;
let expiringKey: string;

/** Stores a key row for a sandbox business whose clear key carries another prefix. */
async function insertKeyRow(owner: Biz, kind: KeyKind, key: string) {
  const { sha256Hex } = await import("@/lib/crypto");
  await testDb()
    .insert(apiKeys)
    .values({ id: newId("apiKey"), businessId: owner.business.id, kind, digest: sha256Hex(key), prefix: key.slice(0, 12) });
}

beforeAll(async () => {
  biz = await createTestBusiness();
  revoked = await createTestBusiness();
  // Both keys revoked, the last secret one included (the API refuses that: decision 0017).
  await testDb().update(apiKeys).set({ revokedAt: new Date().toISOString() }).where(eq(apiKeys.businessId, revoked.business.id));
  // Rolled keys: one whose overlap has ended, one still in it.
  const expired = await createApiKey(testDb(), biz.business, "secret");
  await testDb().update(apiKeys).set({ expiresAt: new Date(Date.now() - 1000).toISOString() }).where(eq(apiKeys.id, expired.id));
  expiredKey = expired.key;
  const expiring = await createApiKey(testDb(), biz.business, "secret");
  await testDb().update(apiKeys).set({ expiresAt: new Date(Date.now() + 3600_000).toISOString() }).where(eq(apiKeys.id, expiring.id));
  expiringKey = expiring.key;
});

const endpoints: [string, string, unknown?][] = [
  ["POST", "/session", sessionBody()],
  ["GET", "/payment/cs_01ZZZZZZZZZZZZZZZZZZZZZZZZ"],
  ["GET", "/payments/methods"],
  ["GET", "/balance"],
];

/** Authorization header values that must all be refused (null: no header at all). */
function badCredentials(): [string, string | null][] {
  const token = biz.secretKey.slice("sk_test_".length);
  return [
    ["missing header", null],
    ["Bearer with nothing", "Bearer"],
    ["Bearer and spaces", "Bearer    "],
    ["another scheme", `Basic ${biz.secretKey}`],
    ["key without scheme", biz.secretKey],
    ["malformed: too short", "Bearer sk_test_abc"],
    ["malformed: one character too many", `Bearer ${biz.secretKey}x`],
    ["malformed: bad characters", `Bearer sk_test_${"-".repeat(32)}`],
    ["malformed: unknown prefix", `Bearer xk_test_${token}`],
    ["two tokens", `Bearer ${biz.secretKey} ${biz.secretKey}`],
    ["unknown well-formed key", `Bearer sk_test_${randomToken(32)}`],
    ["unknown well-formed public key", `Bearer pk_test_${randomToken(32)}`],
    ["revoked secret key", `Bearer ${revoked.secretKey}`],
    ["revoked public key", `Bearer ${revoked.publicKey}`],
    ["expired (rolled) secret key", `Bearer ${expiredKey}`],
    ["secret key with the live prefix", `Bearer sk_live_${token}`],
    ["secret key with the public prefix", `Bearer pk_test_${token}`],
  ];
}

describe("API-key authentication", () => {
  it("every bad credential on every endpoint answers 401 {error: Unauthorized} with the same headers", async () => {
    let baseline: [string, string][] | null = null;
    for (const [method, path, body] of endpoints) {
      for (const [name, authorization] of badCredentials()) {
        const headers: Record<string, string> = authorization === null ? {} : { authorization };
        const res = await api(method, path, { headers, body });
        expect(res.status, `${method} ${path}: ${name}`).toBe(401);
        expect(res.body, `${method} ${path}: ${name}`).toEqual({ error: "Unauthorized" });
        expect(res.headers.get("x-request-id")).toBeTruthy();
        baseline ??= stableHeaders(res.headers);
        expect(stableHeaders(res.headers), `${method} ${path}: ${name}`).toEqual(baseline);
      }
    }
  });

  it("a public key on a secret-only endpoint answers the same 401", async () => {
    const reference = await api("GET", "/balance", {});
    for (const path of ["/payment/cs_01ZZZZZZZZZZZZZZZZZZZZZZZZ", "/balance"]) {
      const res = await api("GET", path, { key: biz.publicKey });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: "Unauthorized" });
      expect(stableHeaders(res.headers)).toEqual(stableHeaders(reference.headers));
    }
    // Even for the business's own session.
    const created = await api("POST", "/session", { key: biz.publicKey, body: sessionBody() });
    expect(created.status).toBe(201);
    const res = await api("GET", `/payment/${created.body.session_id as string}`, { key: biz.publicKey });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: "Unauthorized" });
  });

  it("valid keys open what they may: secret everywhere, public on /session and /payments/methods", async () => {
    expect((await api("GET", "/balance", { key: biz.secretKey })).status).toBe(200);
    expect((await api("GET", "/payments/methods", { key: biz.secretKey })).status).toBe(200);
    expect((await api("GET", "/payments/methods", { key: biz.publicKey })).status).toBe(200);
    expect((await api("POST", "/session", { key: biz.publicKey, body: sessionBody() })).status).toBe(201);
    expect((await api("POST", "/session", { key: biz.secretKey, body: sessionBody() })).status).toBe(201);
  });

  it("the scheme is case-insensitive and surrounding spaces are tolerated", async () => {
    for (const authorization of [`bearer ${biz.secretKey}`, `BEARER ${biz.secretKey}`, `Bearer   ${biz.secretKey}  `]) {
      expect((await api("GET", "/balance", { headers: { authorization } })).status).toBe(200);
    }
  });

  it("revoking a key refuses it from then on, and only that key", async () => {
    const owner = await createTestBusiness();
    const extra = await createApiKey(testDb(), owner.business, "secret");
    expect((await api("GET", "/balance", { key: extra.key })).status).toBe(200);
    await revokeApiKey(testDb(), owner.business.id, extra.id);
    const res = await api("GET", "/balance", { key: extra.key });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: "Unauthorized" });
    expect((await api("GET", "/balance", { key: owner.secretKey })).status).toBe(200);
  });

  it("a stored key whose prefix does not match its business's mode or its kind is refused", async () => {
    const owner = await createTestBusiness();
    const liveKey = `sk_live_${randomToken(32)}`;
    await insertKeyRow(owner, "secret", liveKey);
    const wrongKind = `sk_test_${randomToken(32)}`;
    await insertKeyRow(owner, "public", wrongKind);
    for (const key of [liveKey, wrongKind]) {
      for (const [method, path, body] of endpoints) {
        const res = await api(method, path, { key, body });
        expect(res.status, `${key.slice(0, 8)} ${method} ${path}`).toBe(401);
        expect(res.body).toEqual({ error: "Unauthorized" });
      }
    }
  });

  it("a live business's keys work on a live business (and carry the live prefix)", async () => {
    const live = await createTestBusiness({ mode: "live" });
    expect(live.secretKey).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
    expect((await api("GET", "/balance", { key: live.secretKey })).status).toBe(200);
    const res = await api("GET", "/balance", { key: live.secretKey.replace("sk_live_", "sk_test_") });
    expect(res.status).toBe(401);
  });
});

describe("authenticateApiKey does the same work on every path", () => {
  /** The test database, counting the queries started through it. */
  function countingDb() {
    const calls: string[] = [];
    const db = new Proxy(testDb(), {
      get(target, prop) {
        const value = Reflect.get(target, prop, target) as unknown;
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          if (typeof prop === "string" && /^(select|selectDistinct|execute|insert|update|delete|transaction|\$count)$/.test(prop))
            calls.push(prop);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    }) as Db;
    return { db, calls };
  }

  async function measure(authorization: string | null, accept: "secret" | "secret_or_public") {
    // test/setup-file.ts loaded api-keys before this file's mock of @/lib/crypto existed: load a
    // fresh copy, which sees the counting sha256Hex.
    vi.resetModules();
    const fresh = await import("@/lib/auth/api-keys");
    const { db, calls } = countingDb();
    digests.count = 0;
    let outcome: "ok" | "unauthorized";
    try {
      await fresh.authenticateApiKey(db, authorization, accept);
      outcome = "ok";
    } catch (error) {
      expect((error as Error).constructor.name).toBe(UnauthorizedError.name);
      outcome = "unauthorized";
    }
    // The module's own precomputed digest is made at load time, before the count was reset.
    return { outcome, digests: digests.count, queries: calls };
  }

  it("one digest and one lookup for every failure, as for a success", async () => {
    const cases: [string, string | null, "secret" | "secret_or_public"][] = [
      ...badCredentials().map(([name, header]) => [name, header, "secret_or_public"] as [string, string | null, "secret_or_public"]),
      ["public key on a secret-only endpoint", `Bearer ${biz.publicKey}`, "secret"],
    ];
    for (const [name, header, accept] of cases) {
      expect(await measure(header, accept), name).toEqual({ outcome: "unauthorized", digests: 1, queries: ["select"] });
    }
    expect(await measure(`Bearer ${biz.secretKey}`, "secret")).toEqual({ outcome: "ok", digests: 1, queries: ["select"] });
    expect(await measure(`Bearer ${expiringKey}`, "secret")).toEqual({ outcome: "ok", digests: 1, queries: ["select"] });
    expect(await measure(`Bearer ${biz.publicKey}`, "secret_or_public")).toEqual({
      outcome: "ok",
      digests: 1,
      queries: ["select"],
    });
  });
});
