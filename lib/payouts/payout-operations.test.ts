import { describe, expect, it } from "vitest";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import { api } from "@/test/helpers";
import { allocate, asUser, balancesOf, payoutBusiness, payoutUser, uniqueEmail } from "./payout-test-helpers";

verifyLedgerAfterEach();

type Withdrawal = { id: string; status: string; amount: number; destination: string; payout_user_id: string };
type Page<T> = { data: T[]; has_more: boolean };
type HistoryEntry = {
  id: string;
  type: string;
  amount: number;
  balance_after: number;
  withdrawal: { id: string; status: string } | null;
};

const unauthorized = { error: "Unauthorized" };

describe("payout hash authentication", () => {
  it("accepts the hash as header X-Payout-Hash, body field payout_hash, or query payout_hash", async () => {
    const biz = await payoutBusiness(1000);
    const { email, hash } = await payoutUser(biz.secretKey, 300);
    const viaHeader = await api("GET", "/payout/operations", { headers: { "X-Payout-Hash": hash } });
    const viaQuery = await api("GET", `/payout/operations?payout_hash=${hash}`);
    const viaBody = await api("POST", "/payout/operations", {
      body: { payout_hash: hash, action: "balance" },
    });
    for (const res of [viaHeader, viaQuery, viaBody]) {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({
        object: "payout_user",
        email,
        balance: 300,
        held_balance: 0,
        currency: "USD",
        status: "active",
      });
    }
    expect(viaBody.body).toEqual(viaHeader.body);
    // A withdrawal with the hash in the body only.
    const withdrawal = await api("POST", "/payout/operations/withdrawals", {
      body: { payout_hash: hash, amount: 100, destination: "IBAN DE89 3704 0044 0532 0130 00" },
    });
    expect(withdrawal.status).toBe(201);
  });

  it("prefers the header: the first hash present (header, body, query) is the one judged", async () => {
    const biz = await payoutBusiness(1000);
    const { hash } = await payoutUser(biz.secretKey, 300);
    const wrong = "A".repeat(40);
    expect(
      (await api("GET", `/payout/operations?payout_hash=${wrong}`, { headers: { "x-payout-hash": hash } }))
        .status,
    ).toBe(200);
    expect(
      (await api("GET", `/payout/operations?payout_hash=${hash}`, { headers: { "x-payout-hash": wrong } }))
        .status,
    ).toBe(401);
    expect(
      (
        await api("POST", `/payout/operations?payout_hash=${wrong}`, {
          body: { payout_hash: hash, action: "balance" },
        })
      ).status,
    ).toBe(200);
  });

  it("answers the same 401 for a missing, invalid, malformed or foreign credential", async () => {
    const biz = await payoutBusiness(1000);
    const { hash } = await payoutUser(biz.secretKey, 300);
    const attempts = [
      api("GET", "/payout/operations"),
      api("GET", "/payout/operations", { headers: { "x-payout-hash": "0".repeat(40) } }),
      api("GET", "/payout/operations", { headers: { "x-payout-hash": hash.slice(0, 39) } }),
      api("GET", "/payout/operations", {
        headers: { "x-payout-hash": hash.toLowerCase() === hash ? hash.toUpperCase() : hash.toLowerCase() },
      }),
      api("GET", "/payout/operations?payout_hash="),
      api("POST", "/payout/operations", { body: { payout_hash: 12345, action: "balance" } }),
      api("POST", "/payout/operations", { body: { action: "balance" } }),
      api("GET", "/payout/operations", { key: biz.secretKey }),
      api("GET", "/payout/operations/history", { headers: { "x-payout-hash": "nope" } }),
      api("POST", "/payout/operations/withdrawals", { body: { amount: 10, destination: "x" } }),
      // A broken body without a hash is still a 401, not a 400.
      api("POST", "/payout/operations/withdrawals", { rawBody: "{not json" }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual(unauthorized);
    }
    expect((await asUser(hash, "POST", "/payout/operations/withdrawals", undefined, {})).status).toBe(400);
  });

  it("stops a deactivated user's hash (401) until the merchant reactivates it", async () => {
    const biz = await payoutBusiness(1000);
    const { email, hash } = await payoutUser(biz.secretKey, 300);
    const off = await api("POST", `/payout/users/${encodeURIComponent(email.toUpperCase())}/deactivate`, {
      key: biz.secretKey,
    });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ status: "inactive", balance: 300 });
    expect(off.body.deactivated_at).toMatch(/Z$/);
    for (const res of [
      await asUser(hash, "GET", "/payout/operations"),
      await api("GET", `/payout/operations?payout_hash=${hash}`),
      await api("POST", "/payout/operations", { body: { payout_hash: hash, action: "history" } }),
      await asUser(hash, "POST", "/payout/operations/withdrawals", { amount: 10, destination: "x" }),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual(unauthorized);
    }
    const id = off.body.id as string;
    const on = await api("POST", `/payout/users/${id}/reactivate`, { key: biz.secretKey });
    expect(on.body).toMatchObject({ status: "active", deactivated_at: null });
    expect((await asUser(hash, "GET", "/payout/operations")).status).toBe(200);
  });

  it("rotates a hash: the old one stops working, the new one is returned by later allocations", async () => {
    const biz = await payoutBusiness(1000);
    const { email, hash } = await payoutUser(biz.secretKey, 100);
    const rotated = await api<{ hash: string }>("POST", `/payout/users/${email}/rotate-hash`, {
      key: biz.secretKey,
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.hash).toMatch(/^[0-9A-Za-z]{40}$/);
    expect(rotated.body.hash).not.toBe(hash);
    expect((await asUser(hash, "GET", "/payout/operations")).status).toBe(401);
    expect((await asUser(rotated.body.hash, "GET", "/payout/operations")).status).toBe(200);
    expect((await allocate(biz.secretKey, email, 1)).body).toEqual({ hash: rotated.body.hash });
  });

  it("answers 404 for a payout user of another business on the merchant side", async () => {
    const one = await payoutBusiness(1000);
    const two = await payoutBusiness(1000);
    const { email } = await payoutUser(one.secretKey, 100);
    const res = await api("POST", `/payout/users/${email}/deactivate`, { key: two.secretKey });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: "payout_user_not_found" });
    expect((await api("GET", `/payout/users/${email}`, { key: two.secretKey })).status).toBe(404);
  });
});

describe("withdrawals", () => {
  it("holds the funds while pending, then the merchant completes it", async () => {
    const biz = await payoutBusiness(1000);
    const { hash } = await payoutUser(biz.secretKey, 500);
    const created = await asUser<Withdrawal>(hash, "POST", "/payout/operations/withdrawals", {
      amount: 200,
      destination: "  paypal:jane@example.com  ",
      reference: "march",
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: "withdrawal",
      amount: 200,
      currency: "USD",
      destination: "paypal:jane@example.com",
      reference: "march",
      status: "pending",
      resolved_by: null,
      resolved_at: null,
    });
    expect(created.body.id).toMatch(/^wd_/);
    expect((await asUser(hash, "GET", "/payout/operations")).body).toMatchObject({
      balance: 300,
      held_balance: 200,
    });

    const pending = await api<Page<Withdrawal>>("GET", "/payout/withdrawals?status=pending", {
      key: biz.secretKey,
    });
    expect(pending.body.data.map((w) => w.id)).toEqual([created.body.id]);

    const done = await api("POST", `/payout/withdrawals/${created.body.id}/complete`, {
      key: biz.secretKey,
      body: { settlement_reference: "SEPA-123" },
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      status: "completed",
      settlement_reference: "SEPA-123",
      resolved_by: "merchant",
    });
    expect((await asUser(hash, "GET", "/payout/operations")).body).toMatchObject({
      balance: 300,
      held_balance: 0,
    });
    // Completing again changes nothing; rejecting now conflicts.
    expect(
      (await api("POST", `/payout/withdrawals/${created.body.id}/complete`, { key: biz.secretKey })).body,
    ).toMatchObject({
      status: "completed",
      settlement_reference: "SEPA-123",
    });
    const reject = await api("POST", `/payout/withdrawals/${created.body.id}/reject`, { key: biz.secretKey });
    expect(reject.status).toBe(409);
    expect(reject.body).toMatchObject({ error: "withdrawal_not_pending" });
    expect(
      (await asUser(hash, "GET", `/payout/operations/withdrawals/${created.body.id}`)).body,
    ).toMatchObject({
      status: "completed",
    });
  });

  it("returns the funds when the merchant rejects or the user cancels", async () => {
    const biz = await payoutBusiness(1000);
    const { hash } = await payoutUser(biz.secretKey, 500);
    const a = await asUser<Withdrawal>(hash, "POST", "/payout/operations/withdrawals", {
      amount: 100,
      destination: "x",
    });
    const b = await asUser<Withdrawal>(hash, "POST", "/payout/operations", {
      action: "withdraw",
      amount: 150,
      destination: "y",
    });
    expect(b.status).toBe(201);
    expect((await asUser(hash, "GET", "/payout/operations")).body).toMatchObject({
      balance: 250,
      held_balance: 250,
    });

    const rejected = await api("POST", `/payout/withdrawals/${a.body.id}/reject`, {
      key: biz.secretKey,
      body: { reason: "Unknown IBAN" },
    });
    expect(rejected.body).toMatchObject({
      status: "rejected",
      status_reason: "Unknown IBAN",
      resolved_by: "merchant",
    });
    const canceled = await asUser(hash, "POST", `/payout/operations/withdrawals/${b.body.id}/cancel`, {});
    expect(canceled.body).toMatchObject({ status: "canceled", resolved_by: "payout_user" });
    expect(
      (
        await asUser(hash, "POST", "/payout/operations", {
          action: "cancel_withdrawal",
          withdrawal_id: b.body.id,
        })
      ).status,
    ).toBe(200);
    expect((await asUser(hash, "GET", "/payout/operations")).body).toMatchObject({
      balance: 500,
      held_balance: 0,
    });
    expect((await balancesOf(biz.business.id)).payout_balance).toBe(500);

    const history = await asUser<Page<HistoryEntry>>(hash, "GET", "/payout/operations/history?limit=10");
    expect(
      history.body.data.map((e) => [e.type, e.amount, e.balance_after, e.withdrawal?.status ?? null]),
    ).toEqual([
      ["withdrawal_returned", 150, 500, "canceled"],
      ["withdrawal_returned", 100, 350, "rejected"],
      ["withdrawal", -150, 250, "canceled"],
      ["withdrawal", -100, 400, "rejected"],
      ["allocation", 500, 500, null],
    ]);
  });

  it("never exceeds the available balance, and validates the request", async () => {
    const biz = await payoutBusiness(1000);
    const { hash } = await payoutUser(biz.secretKey, 100);
    const tooMuch = await asUser(hash, "POST", "/payout/operations/withdrawals", {
      amount: 101,
      destination: "x",
    });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body).toMatchObject({ error: "insufficient_balance" });
    const invalid = await asUser(hash, "POST", "/payout/operations/withdrawals", {
      amount: 0,
      destination: "",
    });
    expect(invalid.status).toBe(400);
    expect(Object.keys(invalid.body).sort()).toEqual(["amount", "destination"]);
    const noAction = await asUser(hash, "POST", "/payout/operations", {});
    expect(noAction.status).toBe(400);
    expect(Object.keys(noAction.body)).toEqual(["action"]);
    expect((await asUser(hash, "GET", "/payout/operations")).body).toMatchObject({
      balance: 100,
      held_balance: 0,
    });
  });

  it("limits of a withdrawal (docs/api/payouts.md): amount up to 100000000, destination 500, reference 255", async () => {
    const biz = await payoutBusiness(100_000_000);
    const { hash } = await payoutUser(biz.secretKey, 100_000_000);
    const withdraw = (body: Record<string, unknown>) => asUser(hash, "POST", "/payout/operations/withdrawals", body);
    for (const [body, field] of [
      [{ amount: 100_000_001, destination: "x" }, "amount"],
      [{ amount: 1, destination: "d".repeat(501) }, "destination"],
      [{ amount: 1, destination: "x", reference: "r".repeat(256) }, "reference"],
    ] as const) {
      const res = await withdraw(body);
      expect(res.status, field).toBe(400);
      expect(Object.keys(res.body), field).toEqual([field]);
    }
    expect((await asUser(hash, "GET", "/payout/operations")).body).toMatchObject({ balance: 100_000_000, held_balance: 0 });
    const ok = await withdraw({ amount: 100_000_000, destination: "d".repeat(500), reference: "r".repeat(255) });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body).toMatchObject({ status: "pending", amount: 100_000_000, destination: "d".repeat(500) });
  });

  it("keeps each user to its own withdrawals, and each merchant to its own", async () => {
    const biz = await payoutBusiness(1000);
    const other = await payoutBusiness(1000);
    const alice = await payoutUser(biz.secretKey, 300);
    const bob = await payoutUser(biz.secretKey, 300);
    const w = await asUser<Withdrawal>(alice.hash, "POST", "/payout/operations/withdrawals", {
      amount: 50,
      destination: "x",
    });
    expect((await asUser(bob.hash, "GET", `/payout/operations/withdrawals/${w.body.id}`)).status).toBe(404);
    expect(
      (await asUser(bob.hash, "POST", `/payout/operations/withdrawals/${w.body.id}/cancel`, {})).status,
    ).toBe(404);
    expect(
      (await asUser<Page<Withdrawal>>(bob.hash, "GET", "/payout/operations/withdrawals")).body.data,
    ).toEqual([]);
    expect(
      (await api("POST", `/payout/withdrawals/${w.body.id}/complete`, { key: other.secretKey })).status,
    ).toBe(404);
    const own = await api<Page<Withdrawal>>(
      "GET",
      `/payout/withdrawals?payout_user=${encodeURIComponent(alice.email)}`,
      {
        key: biz.secretKey,
      },
    );
    expect(own.body.data.map((x) => x.id)).toEqual([w.body.id]);
  });

  it("lets the merchant settle the pending withdrawals of a deactivated user", async () => {
    const biz = await payoutBusiness(1000);
    const { email, hash } = await payoutUser(biz.secretKey, 300);
    const w = await asUser<Withdrawal>(hash, "POST", "/payout/operations/withdrawals", {
      amount: 120,
      destination: "x",
    });
    await api("POST", `/payout/users/${email}/deactivate`, { key: biz.secretKey });
    expect(
      (await api("POST", `/payout/withdrawals/${w.body.id}/complete`, { key: biz.secretKey })).body,
    ).toMatchObject({
      status: "completed",
    });
    expect((await api("GET", `/payout/users/${email}`, { key: biz.secretKey })).body).toMatchObject({
      status: "inactive",
      balance: 180,
      held_balance: 0,
    });
  });
});

describe("history pagination", () => {
  it("pages newest first with limit and starting_after", async () => {
    const biz = await payoutBusiness(1000);
    const email = uniqueEmail();
    let hash = "";
    for (let amount = 1; amount <= 5; amount++)
      hash = (await allocate(biz.secretKey, email, amount)).body.hash!;
    const first = await asUser<Page<HistoryEntry>>(hash, "GET", "/payout/operations/history?limit=2");
    expect(first.body.data.map((e) => e.amount)).toEqual([5, 4]);
    expect(first.body.has_more).toBe(true);
    const second = await api<Page<HistoryEntry>>(
      "GET",
      `/payout/operations/history?limit=2&starting_after=${first.body.data[1]!.id}&payout_hash=${hash}`,
    );
    expect(second.body.data.map((e) => e.amount)).toEqual([3, 2]);
    const third = await asUser<Page<HistoryEntry>>(hash, "POST", "/payout/operations", {
      action: "history",
      limit: 2,
      starting_after: second.body.data[1]!.id,
    });
    expect(third.body).toMatchObject({ has_more: false });
    expect(third.body.data.map((e) => e.amount)).toEqual([1]);
    const merchant = await api<Page<HistoryEntry>>("GET", `/payout/users/${email}/history?limit=100`, {
      key: biz.secretKey,
    });
    expect(merchant.body.data).toHaveLength(5);
    const defaults = await asUser<Page<HistoryEntry>>(hash, "GET", "/payout/operations/history");
    expect(defaults.body.data).toHaveLength(5);
    expect(
      (await asUser<Page<HistoryEntry>>(hash, "GET", "/payout/operations/history?limit=&starting_after="))
        .body.data,
    ).toHaveLength(5);
    for (const limit of [0, true, [2], "2"]) {
      const res = await asUser(hash, "POST", "/payout/operations", { action: "history", limit });
      expect(res.status, JSON.stringify(limit)).toBe(limit === "2" ? 200 : 400);
    }
    for (const bad of ["limit=0", "limit=101", "limit=abc", "limit=1.5", "limit=-1", "starting_after=nope"]) {
      const res = await asUser(hash, "GET", `/payout/operations/history?${bad}`);
      expect(res.status).toBe(400);
      expect(Object.keys(res.body)).toHaveLength(1);
    }
  });

  it("lists the merchant's payout users", async () => {
    const biz = await payoutBusiness(1000);
    const a = await payoutUser(biz.secretKey, 10);
    const b = await payoutUser(biz.secretKey, 20);
    await api("POST", `/payout/users/${a.email}/deactivate`, { key: biz.secretKey });
    const all = await api<Page<{ email: string; balance: number }>>("GET", "/payout/users", {
      key: biz.secretKey,
    });
    expect(all.body.data.map((u) => [u.email, u.balance])).toEqual([
      [b.email, 20],
      [a.email, 10],
    ]);
    const inactive = await api<Page<{ email: string }>>("GET", "/payout/users?status=inactive", {
      key: biz.secretKey,
    });
    expect(inactive.body.data.map((u) => u.email)).toEqual([a.email]);
  });
});
