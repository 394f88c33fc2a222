import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "@/db/client";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import { api, createTestBusiness, testDb } from "@/test/helpers";
import { allocate, balancesOf, payoutBusiness, uniqueEmail } from "./payout-test-helpers";

verifyLedgerAfterEach();

const disabledBody = { error: "Payouts are currently disabled. Please enable them in Settings." };

async function userCount(businessId: string) {
  const [row] = await queryRows<{ n: number }>(
    testDb(),
    sql`SELECT COUNT(*)::int AS n FROM payout_users WHERE business_id = ${businessId}`,
  );
  return Number(row!.n);
}

describe("POST /payout/create: authentication and settings", () => {
  it("answers 401 {error: Unauthorized} without a key, with a public key and with a wrong key", async () => {
    const biz = await payoutBusiness(1000);
    const body = { email: uniqueEmail(), amount: 10 };
    // The real key with its last character changed (never to itself: a fixed "Z" was once the same key).
    const altered = biz.secretKey.slice(0, -1) + (biz.secretKey.endsWith("Z") ? "Y" : "Z");
    for (const key of [null, biz.publicKey, "sk_test_" + "x".repeat(32), altered]) {
      const res = await api("POST", "/payout/create", { key, body });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: "Unauthorized" });
    }
    expect((await balancesOf(biz.business.id)).payout_balance).toBe(1000);
  });

  it("answers 403 with the interface's body when payouts are disabled, before judging the body", async () => {
    const biz = await createTestBusiness({ payoutsEnabled: false });
    await api("POST", "/sandbox/payout-balance", { key: biz.secretKey, body: { amount: 1000 } });
    for (const body of [
      { email: uniqueEmail(), amount: 10 },
      { email: "nope", amount: -1 },
    ]) {
      const res = await api("POST", "/payout/create", { key: biz.secretKey, body });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(disabledBody);
    }
    expect((await balancesOf(biz.business.id)).payout_balance).toBe(1000);
    expect(await userCount(biz.business.id)).toBe(0);
  });
});

describe("POST /payout/create: validation", () => {
  const cases: [string, unknown, string[]][] = [
    ["missing email", { amount: 10 }, ["email"]],
    ["missing amount", { email: "a@example.com" }, ["amount"]],
    ["both missing", {}, ["amount", "email"]],
    ["invalid e-mail", { email: "not-an-email", amount: 10 }, ["email"]],
    ["e-mail not a string", { email: 42, amount: 10 }, ["email"]],
    ["e-mail of 256 characters", { email: `${"a".repeat(244)}@example.com`, amount: 10 }, ["email"]],
    ["amount 0", { email: "a@example.com", amount: 0 }, ["amount"]],
    ["negative amount", { email: "a@example.com", amount: -5 }, ["amount"]],
    ["amount above 100000000", { email: "a@example.com", amount: 100_000_001 }, ["amount"]],
    ["fractional amount", { email: "a@example.com", amount: 10.5 }, ["amount"]],
    ["amount as a string", { email: "a@example.com", amount: "10" }, ["amount"]],
    ["amount as a boolean", { email: "a@example.com", amount: true }, ["amount"]],
    ["amount null", { email: "a@example.com", amount: null }, ["amount"]],
  ];
  for (const [name, body, fields] of cases)
    it(`answers 400 with field messages: ${name}`, async () => {
      const biz = await payoutBusiness(1000);
      const res = await api("POST", "/payout/create", { key: biz.secretKey, body });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(Object.keys(res.body).sort()).toEqual(fields);
      for (const field of fields) {
        const messages = res.body[field] as unknown[];
        expect(
          Array.isArray(messages) && messages.length > 0 && messages.every((m) => typeof m === "string"),
        ).toBe(true);
      }
      expect((await balancesOf(biz.business.id)).payout_balance).toBe(1000);
      expect(await userCount(biz.business.id)).toBe(0);
    });

  it("accepts the limits: an e-mail of 255 characters, amounts 1 and 100000000", async () => {
    const biz = await payoutBusiness(100_000_000);
    await api("POST", "/sandbox/payout-balance", { key: biz.secretKey, body: { amount: 1 } });
    const longEmail = `${"a".repeat(243)}@example.com`;
    expect(longEmail).toHaveLength(255);
    expect((await allocate(biz.secretKey, longEmail, 1)).status).toBe(201);
    expect((await allocate(biz.secretKey, uniqueEmail(), 100_000_000)).status).toBe(201);
    expect((await balancesOf(biz.business.id)).payout_balance).toBe(0);
  });

  it("answers 400 for a body that is not a JSON object", async () => {
    const biz = await payoutBusiness(1000);
    const res = await api("POST", "/payout/create", { key: biz.secretKey, rawBody: "[1,2]" });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_json" });
  });
});

describe("POST /payout/create: effect", () => {
  it("debits the payout balance, creates the user and answers 201 {hash}", async () => {
    const biz = await payoutBusiness(1000);
    const res = await allocate(biz.secretKey, uniqueEmail(), 300);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(["hash"]);
    expect(res.body.hash).toMatch(/^[0-9A-Za-z]{40}$/);
    expect(await balancesOf(biz.business.id)).toEqual({ balance: 0, payout_balance: 700 });
    const balance = await api("GET", "/balance", { key: biz.secretKey });
    expect(balance.body).toEqual({ balance: 0, payout_balance: 700 });
  });

  it("answers 400 {error: Insufficient payout balance} when short and changes nothing", async () => {
    const biz = await payoutBusiness(100);
    const email = uniqueEmail();
    const res = await allocate(biz.secretKey, email, 101);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "Insufficient payout balance" });
    expect((await balancesOf(biz.business.id)).payout_balance).toBe(100);
    expect(await userCount(biz.business.id)).toBe(0);
    // An existing user is not credited either.
    expect((await allocate(biz.secretKey, email, 60)).status).toBe(201);
    expect((await allocate(biz.secretKey, email, 41)).body).toEqual({ error: "Insufficient payout balance" });
    const user = await api("GET", `/payout/users/${email}`, { key: biz.secretKey });
    expect(user.body).toMatchObject({ balance: 60 });
    expect((await balancesOf(biz.business.id)).payout_balance).toBe(40);
  });

  it("is not idempotent without a key: each call adds again, and the hash stays the same", async () => {
    const biz = await payoutBusiness(1000);
    const email = uniqueEmail();
    const first = await allocate(biz.secretKey, email, 100);
    const second = await allocate(biz.secretKey, email, 100);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.hash).toBe(first.body.hash);
    expect((await balancesOf(biz.business.id)).payout_balance).toBe(800);
    const user = await api("GET", `/payout/users/${email}`, { key: biz.secretKey });
    expect(user.body).toMatchObject({ email, balance: 200, held_balance: 0, status: "active" });
    const history = await api<{ data: { type: string; amount: number; balance_after: number }[] }>(
      "GET",
      `/payout/users/${email}/history`,
      { key: biz.secretKey },
    );
    expect(history.body.data.map((e) => [e.type, e.amount, e.balance_after])).toEqual([
      ["allocation", 100, 200],
      ["allocation", 100, 100],
    ]);
  });

  it("treats e-mails case-insensitively: same e-mail in another case is the same user", async () => {
    const biz = await payoutBusiness(1000);
    const a = await allocate(biz.secretKey, "Jane.Doe@Example.COM", 100);
    const b = await allocate(biz.secretKey, "jane.doe@example.com", 50);
    const c = await allocate(biz.secretKey, "JANE.DOE@EXAMPLE.COM", 25);
    expect(new Set([a.body.hash, b.body.hash, c.body.hash]).size).toBe(1);
    expect(await userCount(biz.business.id)).toBe(1);
    const user = await api("GET", "/payout/users/JANE.doe@example.com", { key: biz.secretKey });
    expect(user.body).toMatchObject({ email: "Jane.Doe@Example.COM", balance: 175 });
  });

  it("gives the same e-mail at two businesses two hashes, and other e-mails other hashes", async () => {
    const one = await payoutBusiness(1000);
    const two = await payoutBusiness(1000);
    const email = uniqueEmail();
    const a = await allocate(one.secretKey, email, 10);
    const b = await allocate(two.secretKey, email, 10);
    const c = await allocate(one.secretKey, uniqueEmail(), 10);
    expect(a.body.hash).not.toBe(b.body.hash);
    expect(a.body.hash).not.toBe(c.body.hash);
  });

  it("stores the hash only as a digest and encrypted, never in clear", async () => {
    const biz = await payoutBusiness(1000);
    const { body } = await allocate(biz.secretKey, uniqueEmail(), 10, { "Idempotency-Key": "store-check" });
    const hash = body.hash!;
    const rows = await queryRows<Record<string, unknown>>(
      testDb(),
      sql`SELECT * FROM payout_users WHERE business_id = ${biz.business.id}`,
    );
    const keys = await queryRows<Record<string, unknown>>(
      testDb(),
      sql`SELECT * FROM idempotency_keys WHERE business_id = ${biz.business.id}`,
    );
    expect(rows).toHaveLength(1);
    expect(keys).toHaveLength(1);
    expect(JSON.stringify([rows, keys])).not.toContain(hash);
    expect(rows[0]!.hash_digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it("refuses to allocate to a deactivated user (409) and moves nothing", async () => {
    const biz = await payoutBusiness(1000);
    const email = uniqueEmail();
    await allocate(biz.secretKey, email, 100);
    expect((await api("POST", `/payout/users/${email}/deactivate`, { key: biz.secretKey })).status).toBe(200);
    const res = await allocate(biz.secretKey, email, 100);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: "payout_user_inactive" });
    expect((await balancesOf(biz.business.id)).payout_balance).toBe(900);
  });
});
