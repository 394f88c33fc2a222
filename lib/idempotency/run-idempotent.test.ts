import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "@/db/client";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import {
  allocate,
  asUser,
  balancesOf,
  payoutBusiness,
  payoutUser,
  uniqueEmail,
} from "@/lib/payouts/payout-test-helpers";
import { api, testDb } from "@/test/helpers";
import { pruneIdempotencyKeys, requestFingerprint } from "./run-idempotent";

verifyLedgerAfterEach();

const key = (name: string) => ({ "Idempotency-Key": `${name}-${Math.random().toString(36).slice(2)}` });

describe("Idempotency-Key on POST /payout/create", () => {
  it("replays the first response for a retry with the same key and body, moving money once", async () => {
    const biz = await payoutBusiness(1000);
    const headers = key("replay");
    const email = uniqueEmail();
    const first = await allocate(biz.secretKey, email, 100, headers);
    const again = await api("POST", "/payout/create", {
      key: biz.secretKey,
      body: { amount: 100, email },
      headers,
    });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await balancesOf(biz.business.id)).payout_balance).toBe(900);
  });

  it("answers 409 for the same key with another body, and moves nothing", async () => {
    const biz = await payoutBusiness(1000);
    const headers = key("conflict");
    const email = uniqueEmail();
    expect((await allocate(biz.secretKey, email, 100, headers)).status).toBe(201);
    const other = await allocate(biz.secretKey, email, 101, headers);
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ error: "idempotency_key_reused" });
    expect((await allocate(biz.secretKey, uniqueEmail(), 100, headers)).status).toBe(409);
    expect((await balancesOf(biz.business.id)).payout_balance).toBe(900);
  });

  it("scopes keys per business and per caller", async () => {
    const one = await payoutBusiness(1000);
    const two = await payoutBusiness(1000);
    const headers = key("scope");
    const email = uniqueEmail();
    const a = await allocate(one.secretKey, email, 100, headers);
    const b = await allocate(two.secretKey, email, 100, headers);
    expect(b.status).toBe(201);
    expect(b.body.hash).not.toBe(a.body.hash);
    // A payout user's key lives apart from the business's own keys.
    const w = await asUser(
      a.body.hash!,
      "POST",
      "/payout/operations/withdrawals",
      { amount: 10, destination: "x" },
      headers,
    );
    expect(w.status).toBe(201);
  });

  it("replays a stored 4xx too: the retry of a refused request stays refused", async () => {
    const biz = await payoutBusiness(50);
    const headers = key("short");
    const email = uniqueEmail();
    expect((await allocate(biz.secretKey, email, 100, headers)).body).toEqual({
      error: "Insufficient payout balance",
    });
    await api("POST", "/sandbox/payout-balance", { key: biz.secretKey, body: { amount: 100 } });
    const retry = await allocate(biz.secretKey, email, 100, headers);
    expect(retry.status).toBe(400);
    expect(retry.body).toEqual({ error: "Insufficient payout balance" });
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect((await allocate(biz.secretKey, email, 100, key("short-new"))).status).toBe(201);
  });

  it("does not keep a validation failure: the corrected request may reuse the key", async () => {
    const biz = await payoutBusiness(1000);
    const headers = key("invalid");
    const email = uniqueEmail();
    expect((await allocate(biz.secretKey, email, 0, headers)).status).toBe(400);
    expect((await allocate(biz.secretKey, email, 10, headers)).status).toBe(201);
  });

  it("refuses an unusable key with 400", async () => {
    const biz = await payoutBusiness(1000);
    for (const value of ["x".repeat(256), "has space", "é"]) {
      const res = await allocate(biz.secretKey, uniqueEmail(), 10, { "Idempotency-Key": value });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: "invalid_idempotency_key" });
    }
    expect((await balancesOf(biz.business.id)).payout_balance).toBe(1000);
  });

  it("honours the key on withdrawals: one hold for two identical requests", async () => {
    const biz = await payoutBusiness(1000);
    const { hash } = await payoutUser(biz.secretKey, 500);
    const headers = key("withdraw");
    const body = { amount: 200, destination: "x" };
    const a = await asUser(hash, "POST", "/payout/operations/withdrawals", body, headers);
    const b = await api("POST", "/payout/operations/withdrawals", {
      body: { ...body, payout_hash: hash },
      headers,
    });
    expect(b.body).toEqual(a.body);
    expect((await asUser(hash, "GET", "/payout/operations")).body).toMatchObject({
      balance: 300,
      held_balance: 200,
    });
  });

  it("does not store clear responses, and old keys can be pruned", async () => {
    const biz = await payoutBusiness(1000);
    const created = await allocate(biz.secretKey, uniqueEmail(), 10, key("prune"));
    const rows = await queryRows<Record<string, unknown>>(
      testDb(),
      sql`SELECT * FROM idempotency_keys WHERE business_id = ${biz.business.id}`,
    );
    expect(JSON.stringify(rows)).not.toContain(created.body.hash!);
    expect(await pruneIdempotencyKeys(testDb(), new Date(Date.now() - 60_000))).toBe(0);
    expect(await pruneIdempotencyKeys(testDb(), new Date(Date.now() + 60_000))).toBeGreaterThan(0);
  });

  it("fingerprints ignore key order but not values", () => {
    expect(requestFingerprint("POST", "/p", { a: 1, b: { c: 2, d: 3 } })).toBe(
      requestFingerprint("post", "/p", { b: { d: 3, c: 2 }, a: 1 }),
    );
    expect(requestFingerprint("POST", "/p", { a: 1 })).not.toBe(requestFingerprint("POST", "/p", { a: 2 }));
    expect(requestFingerprint("POST", "/p", { a: 1 })).not.toBe(requestFingerprint("POST", "/q", { a: 1 }));
  });
});
