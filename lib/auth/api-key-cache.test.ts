import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase, queryRows, type DatabaseHandle } from "@/db/client";
import { createApiKey } from "@/lib/auth/api-keys";
import { installDatabase } from "@/lib/db";
import { api, createTestBusiness, sessionBody, testDb, testHandle } from "@/test/helpers";
import { authenticateCachedApiKey } from "./api-key-cache";

// Decision 0081: a key read once is kept in the instance's cache, and every use of the cached key
// is checked in the route's own statement, so a change made anywhere acts from the next request.

const postSession = (key: string) => api("POST", "/session", { key, body: sessionBody() });
const getPayment = (key: string, id: string) => api("GET", `/payment/${id}`, { key });

/** Runs `fn` as instance `handle` (its own database handle, so its own key cache). */
async function on<T>(handle: DatabaseHandle, fn: () => Promise<T>): Promise<T> {
  installDatabase(handle);
  try {
    return await fn();
  } finally {
    installDatabase(testHandle());
  }
}

/** The key is in `handle`'s cache: the next request uses it without reading the key. */
async function expectCached(handle: DatabaseHandle, key: string) {
  const { check } = await authenticateCachedApiKey(handle.db, `Bearer ${key}`, "secret");
  expect(check).not.toBeNull();
}

async function hits(keyId: string): Promise<number> {
  const rows = await queryRows<{ points: number }>(testDb(), sql`select points from rate_limits where key = ${`session:key:${keyId}`}`);
  return Number(rows[0]?.points ?? 0);
}

/** Two instances on one database when there is PostgreSQL; on PGlite, one (its owner). */
async function instances(): Promise<{ a: DatabaseHandle; b: DatabaseHandle; close: () => Promise<void> }> {
  const url = (testHandle() as { url?: string }).url;
  if (!url) return { a: testHandle(), b: testHandle(), close: async () => {} };
  const b = await openDatabase({ kind: "postgres", url, max: 2 });
  return { a: testHandle(), b, close: () => b.close() };
}

describe("the API key cache (decision 0081)", () => {
  it("a key revoked on one instance is refused by another at its next request, uncounted", async () => {
    const { a, b, close } = await instances();
    try {
      const biz = await createTestBusiness();
      const other = await createApiKey(testDb(), biz.business, "secret");
      // Instance B has used the key: it is in B's cache.
      const created = await on(b, () => postSession(other.key));
      expect(created.status).toBe(201);
      const sessionId = created.body.session_id as string;
      expect((await on(b, () => getPayment(other.key, sessionId))).status).toBe(200);
      await expectCached(b, other.key);
      const counted = await hits(other.id);

      expect((await on(a, () => api("POST", `/api-keys/${other.id}/revoke`, { key: biz.secretKey }))).status).toBe(200);
      expect((await on(b, () => postSession(other.key))).status).toBe(401);
      expect((await on(b, () => getPayment(other.key, sessionId))).status).toBe(401);
      // The refused request was not counted against the key (the check guards the upsert).
      expect(await hits(other.id)).toBe(counted);
      // The business's other key still works on B.
      expect((await on(b, () => getPayment(biz.secretKey, sessionId))).status).toBe(200);
    } finally {
      await close();
    }
    // The file's first API calls load the router and the OpenAPI document: slow on a loaded machine.
  }, 90_000);

  it("a key rolled to end at once, or to expire, stops on the other instance", async () => {
    const { a, b, close } = await instances();
    try {
      const biz = await createTestBusiness();
      const ending = await createApiKey(testDb(), biz.business, "secret");
      const expiring = await createApiKey(testDb(), biz.business, "secret");
      for (const key of [ending.key, expiring.key]) {
        expect((await on(b, () => postSession(key))).status).toBe(201);
        await expectCached(b, key);
      }
      const roll = (id: string, seconds: number) =>
        on(a, () => api("POST", `/api-keys/${id}/roll`, { key: biz.secretKey, body: { expires_in_seconds: seconds } }));
      expect((await roll(ending.id, 0)).status).toBe(200);
      expect((await on(b, () => postSession(ending.key))).status).toBe(401);

      const rolledAt = Date.now();
      expect((await roll(expiring.id, 3)).status).toBe(200);
      // Still valid for its overlap (B reads the roll, then caches the key again), unless the
      // machine was too slow to ask within it...
      const during = await on(b, () => postSession(expiring.key));
      if (Date.now() - rolledAt < 2_500) expect(during.status).toBe(201);
      // ...and refused once it expired, with no change to any row: the check reads the expiry.
      await expect
        .poll(async () => (await on(b, () => postSession(expiring.key))).status, { timeout: 15_000, interval: 250 })
        .toBe(401);
    } finally {
      await close();
    }
  });

  it("a change of the business (its sandbox clock) is seen by the other instance's next request", async () => {
    const { a, b, close } = await instances();
    try {
      const biz = await createTestBusiness();
      const created = await on(b, () => postSession(biz.secretKey));
      const sessionId = created.body.session_id as string;
      expect((await on(b, () => getPayment(biz.secretKey, sessionId))).status).toBe(200);
      const before = await authenticateCachedApiKey(b.db, `Bearer ${biz.secretKey}`, "secret");
      expect(before.check).not.toBeNull();
      expect(before.caller.business.clockOffsetMs).toBe(0);
      // A minute on the business's clock (no job comes due): B's cached business is outdated.
      const advanced = await on(a, () => api("POST", "/sandbox/clock/advance", { key: biz.secretKey, body: { seconds: 60 } }));
      expect(advanced.status).toBe(200);
      expect((await on(b, () => getPayment(biz.secretKey, sessionId))).status).toBe(200);
      // B's request found its cached business changed and read it afresh.
      const after = await authenticateCachedApiKey(b.db, `Bearer ${biz.secretKey}`, "secret");
      expect(after.caller.business.clockOffsetMs).toBeGreaterThanOrEqual(60_000);
    } finally {
      await close();
    }
  });

  it("a cached key's refusals are those of a fresh read: wrong kind, unknown session", async () => {
    const biz = await createTestBusiness();
    expect((await postSession(biz.publicKey)).status).toBe(201);
    // The public key is cached for POST /session, and still refused where a secret key is needed.
    expect((await getPayment(biz.publicKey, "cs_nothing")).status).toBe(401);
    expect((await postSession(biz.secretKey)).status).toBe(201);
    const missing = await getPayment(biz.secretKey, "cs_nothing");
    expect(missing.status).toBe(404);
    expect((await getPayment(biz.secretKey, "not-an-id")).status).toBe(404);
  });
});
