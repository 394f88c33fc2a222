import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { businesses, payoutWithdrawals } from "@/db/schema";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import { asUser, balancesOf, creditBusinessBalance, payoutBusiness, payoutUser, uniqueEmail } from "@/lib/payouts/payout-test-helpers";
import { testDb } from "@/test/helpers";
import { getPayoutUserDetail, getPayoutsDashboard, payoutUsersPageSize } from "./payouts";
import { runPayoutCommand } from "./payouts-actions";
import { staffFor } from "./testing-staff";

verifyLedgerAfterEach();

const iban = "IBAN DE89 3704 0044 0532 0130 00";

async function withdraw(hash: string, amount: number) {
  const res = await asUser<{ id: string; status: string }>(hash, "POST", "/payout/operations/withdrawals", { amount, destination: iban });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

const withdrawalRow = async (id: string) => (await testDb().select().from(payoutWithdrawals).where(eq(payoutWithdrawals.id, id)))[0]!;

describe("getPayoutsDashboard", () => {
  it("shows the business's balances, its payout users (searchable, paged) and its pending withdrawals, oldest first", async () => {
    const biz = await payoutBusiness(10_000);
    const other = await payoutBusiness(10_000);
    await creditBusinessBalance(biz.business.id, 700);
    const ada = await payoutUser(biz.secretKey, 3000, uniqueEmail("Ada"));
    const bob = await payoutUser(biz.secretKey, 2000, uniqueEmail("bob"));
    const stranger = await payoutUser(other.secretKey, 1000, uniqueEmail("stranger"));
    const first = await withdraw(ada.hash, 1000);
    const second = await withdraw(bob.hash, 500);
    await withdraw(stranger.hash, 100);
    const done = await withdraw(bob.hash, 200);
    await runPayoutCommand(testDb(), staffFor(biz.business.id, "owner"), { business: biz.business.id, intent: "complete", withdrawal_id: done });

    const view = await getPayoutsDashboard(testDb(), biz.business.id);
    expect(view).toMatchObject({ payoutsEnabled: true, currency: "USD", balance: 700, payoutBalance: 5000, pendingCount: 2, nextUsersCursor: null });
    expect(view.users.data.map((u) => [u.email, u.balance, u.held_balance])).toEqual([
      [bob.email, 1300, 500],
      [ada.email, 2000, 1000],
    ]);
    expect(view.pendingWithdrawals.map((w) => [w.id, w.email, w.amount])).toEqual([
      [first, ada.email, 1000],
      [second, bob.email, 500],
    ]);

    // Search by part of the e-mail (any case) or by id; a search never reaches another business.
    const search = async (q: string) => (await getPayoutsDashboard(testDb(), biz.business.id, { q })).users.data.map((u) => u.email);
    expect(await search("ADA")).toEqual([ada.email]);
    expect(await search(view.users.data[0]!.id)).toEqual([bob.email]);
    expect(await search("stranger")).toEqual([]);
    expect(await search("%")).toEqual([]);
    expect((await getPayoutsDashboard(testDb(), biz.business.id, { status: "inactive" })).users.data).toEqual([]);
  });

  it("pages the users, and is empty for a business without payouts", async () => {
    const biz = await payoutBusiness(100_000);
    for (let i = 0; i <= payoutUsersPageSize; i++) await payoutUser(biz.secretKey, 10);
    const page1 = await getPayoutsDashboard(testDb(), biz.business.id);
    expect(page1.users.data).toHaveLength(payoutUsersPageSize);
    expect(page1.nextUsersCursor).toBe(page1.users.data.at(-1)!.id);
    const page2 = await getPayoutsDashboard(testDb(), biz.business.id, { after: page1.nextUsersCursor! });
    expect(page2.users.data).toHaveLength(1);
    expect(page2.nextUsersCursor).toBeNull();

    const empty = await getPayoutsDashboard(testDb(), (await payoutBusiness()).business.id);
    expect(empty).toMatchObject({ balance: 0, payoutBalance: 0, users: { data: [], has_more: false }, pendingWithdrawals: [], pendingCount: 0 });
    await expect(getPayoutsDashboard(testDb(), "biz_missing")).rejects.toMatchObject({ code: "business_not_found" });
  });

  it("getPayoutUserDetail: the user's history and withdrawals; another business's user is not found", async () => {
    const biz = await payoutBusiness(5000);
    const other = await payoutBusiness(5000);
    const ada = await payoutUser(biz.secretKey, 3000);
    const id = await withdraw(ada.hash, 1200);
    const detail = await getPayoutUserDetail(testDb(), biz.business.id, ada.email.toUpperCase());
    expect(detail.user).toMatchObject({ email: ada.email, balance: 1800, held_balance: 1200 });
    expect(detail.history.data.map((e) => [e.type, e.amount, e.balance_after])).toEqual([
      ["withdrawal", -1200, 1800],
      ["allocation", 3000, 3000],
    ]);
    expect(detail.withdrawals.data.map((w) => w.id)).toEqual([id]);
    await expect(getPayoutUserDetail(testDb(), other.business.id, detail.user.id)).rejects.toMatchObject({ code: "payout_user_not_found" });
  });
});

describe("runPayoutCommand", () => {
  it("enables payouts, moves funds, allocates by e-mail, approves and rejects withdrawals, with the API's rules and errors", async () => {
    const biz = await payoutBusiness(0, { payoutsEnabled: false });
    const bizId = biz.business.id;
    const owner = staffFor(bizId, "owner");
    const run = (form: Record<string, unknown>, staff = owner) => runPayoutCommand(testDb(), staff, { business: bizId, ...form });
    const email = uniqueEmail("Jane");

    // Disabled: allocation refused with the API's message, nothing moved.
    expect(await run({ intent: "allocate", email, amount: "5" })).toEqual({
      ok: false,
      error: "payouts_disabled",
      message: "Payouts are currently disabled. Please enable them in Settings.",
    });
    expect(await run({ intent: "set_enabled", enabled: "true" })).toMatchObject({ ok: true });
    expect((await testDb().select().from(businesses).where(eq(businesses.id, bizId)))[0]!.payoutsEnabled).toBe(true);

    // Moving more than the business balance, or allocating more than the payout balance: refused.
    expect(await run({ intent: "transfer", amount: "10" })).toEqual({ ok: false, error: "insufficient_funds", message: "Insufficient balance" });
    await creditBusinessBalance(bizId, 10_000);
    expect(await run({ intent: "transfer", amount: "60.50" })).toMatchObject({ ok: true, message: expect.stringContaining("$60.50") });
    expect(await balancesOf(bizId)).toEqual({ balance: 3950, payout_balance: 6050 });
    expect(await run({ intent: "allocate", email, amount: "60.51" })).toEqual({
      ok: false,
      error: "insufficient_payout_balance",
      message: "Insufficient payout balance",
    });

    const allocated = await run({ intent: "allocate", email, amount: "40" });
    expect(allocated).toMatchObject({ ok: true, message: expect.stringMatching(/Allocated \$40\.00 to .* \(new payout user\); their balance is \$40\.00\. Their payout hash.*: \S{40}$/) });
    const hash = allocated!.message.split(" ").at(-1)!;
    // Same user by e-mail in another case: the same hash, the balance adds up.
    expect(await run({ intent: "allocate", email: email.toUpperCase(), amount: "10" })).toMatchObject({ ok: true, message: expect.stringContaining(hash) });
    expect(await balancesOf(bizId)).toEqual({ balance: 3950, payout_balance: 1050 });

    const paid = await withdraw(hash, 2000);
    const refused = await withdraw(hash, 1000);
    expect(await run({ intent: "complete", withdrawal_id: paid, settlement_reference: "SEPA-42" })).toMatchObject({ ok: true });
    expect(await withdrawalRow(paid)).toMatchObject({ status: "completed", resolvedBy: "merchant", settlementReference: "SEPA-42" });
    // Rejected by support (an admin who opened the business): funds back to the user.
    expect(await run({ intent: "reject", withdrawal_id: refused, reason: "wrong IBAN" }, staffFor(bizId, "admin"))).toMatchObject({ ok: true });
    expect(await withdrawalRow(refused)).toMatchObject({ status: "rejected", resolvedBy: "support", statusReason: "wrong IBAN" });
    // Settling again the other way: the API's 409.
    expect(await run({ intent: "reject", withdrawal_id: paid })).toMatchObject({ ok: false, error: "withdrawal_not_pending" });
    const detail = await getPayoutUserDetail(testDb(), bizId, email);
    expect(detail.user).toMatchObject({ balance: 5000 - 2000, held_balance: 0 });

    // Deactivated: no allocation, the hash answers 401; reactivated: the same hash works.
    expect(await run({ intent: "deactivate", payout_user_id: detail.user.id })).toMatchObject({ ok: true });
    expect(await run({ intent: "allocate", email, amount: "1" })).toMatchObject({ ok: false, error: "payout_user_inactive" });
    expect((await asUser(hash, "GET", "/payout/operations")).status).toBe(401);
    expect(await run({ intent: "reactivate", payout_user_id: detail.user.id })).toMatchObject({ ok: true });
    expect((await asUser(hash, "GET", "/payout/operations")).status).toBe(200);

    // Disabled again: payout users keep their balance; allocations are refused.
    expect(await run({ intent: "set_enabled", enabled: "false" })).toMatchObject({ ok: true });
    expect(await run({ intent: "allocate", email, amount: "1" })).toMatchObject({ ok: false, error: "payouts_disabled" });
    expect(await balancesOf(bizId)).toEqual({ balance: 3950, payout_balance: 1050 });
  });

  it("refuses bad input with field messages and changes nothing", async () => {
    const biz = await payoutBusiness(5000);
    const bizId = biz.business.id;
    const run = (form: Record<string, unknown>) => runPayoutCommand(testDb(), staffFor(bizId, "manager"), { business: bizId, ...form });
    const before = await balancesOf(bizId);
    expect(await run({ intent: "allocate", email: "not-an-email", amount: "5" })).toMatchObject({
      ok: false,
      error: "validation_failed",
      fields: { email: ["The e-mail must be a valid e-mail address"] },
    });
    for (const amount of ["", "0", "-5", "1.234", "abc", "12e3", "1000000.01"])
      expect(await run({ intent: "allocate", email: "a@example.com", amount }), amount).toMatchObject({ ok: false, error: "validation_failed" });
    expect(await run({ intent: "transfer", amount: "0.00" })).toMatchObject({ ok: false, fields: { amount: ["The amount must be more than 0"] } });
    expect(await run({ intent: "complete", withdrawal_id: "../x" })).toMatchObject({ ok: false, fields: { withdrawal_id: ["Unknown withdrawal"] } });
    expect(await run({ intent: "complete", withdrawal_id: "wd_01NOPE" })).toMatchObject({ ok: false, error: "withdrawal_not_found" });
    expect(await run({ intent: "reject", withdrawal_id: "wd_01NOPE", reason: "x".repeat(501) })).toMatchObject({ ok: false, fields: { reason: ["reason must be at most 500 characters"] } });
    expect(await run({ intent: "deactivate", payout_user_id: "pu_01NOPE" })).toMatchObject({ ok: false, error: "payout_user_not_found" });
    expect(await run({ intent: "explode" })).toMatchObject({ ok: false, error: "validation_failed" });
    expect(await run({ intent: "set_enabled", enabled: "maybe" })).toMatchObject({ ok: false, error: "validation_failed" });
    expect(await run({})).toMatchObject({ ok: false, error: "validation_failed" });
    expect(await balancesOf(bizId)).toEqual(before);
    expect((await getPayoutsDashboard(testDb(), bizId)).users.data).toEqual([]);
  });

  it("acts only in the business the staff member may run and is showing: another business's ids are refused", async () => {
    const mine = await payoutBusiness(5000);
    const theirs = await payoutBusiness(5000);
    const theirUser = await payoutUser(theirs.secretKey, 1000);
    const theirWithdrawal = await withdraw(theirUser.hash, 500);
    const theirUserId = (await getPayoutUserDetail(testDb(), theirs.business.id, theirUser.email)).user.id;
    const manager = staffFor(mine.business.id, "manager");
    const before = await balancesOf(theirs.business.id);

    // A form for the other business: refused before anything runs.
    for (const intent of ["set_enabled", "transfer", "allocate", "complete", "reject", "deactivate"])
      expect(
        await runPayoutCommand(testDb(), manager, { business: theirs.business.id, intent, enabled: "false", amount: "1", email: "x@example.com", withdrawal_id: theirWithdrawal, payout_user_id: theirUserId }),
        intent,
      ).toMatchObject({ ok: false, error: "business_changed" });
    // The other business's ids through a form of their own business: not found there.
    expect(await runPayoutCommand(testDb(), manager, { business: mine.business.id, intent: "complete", withdrawal_id: theirWithdrawal })).toMatchObject({
      ok: false,
      error: "withdrawal_not_found",
    });
    expect(await runPayoutCommand(testDb(), manager, { business: mine.business.id, intent: "deactivate", payout_user_id: theirUserId })).toMatchObject({
      ok: false,
      error: "payout_user_not_found",
    });
    // A staff member shown a business they are not a member of (never built by loadStaff): forbidden.
    const intruder = { ...manager, businessId: theirs.business.id };
    expect(await runPayoutCommand(testDb(), intruder, { business: theirs.business.id, intent: "set_enabled", enabled: "false" })).toMatchObject({ ok: false, error: "forbidden" });
    // Support, having opened that business, may.
    expect(await runPayoutCommand(testDb(), staffFor(theirs.business.id, "admin"), { business: theirs.business.id, intent: "complete", withdrawal_id: theirWithdrawal })).toMatchObject({ ok: true });

    expect(await withdrawalRow(theirWithdrawal)).toMatchObject({ status: "completed", resolvedBy: "support" });
    expect((await testDb().select().from(businesses).where(eq(businesses.id, theirs.business.id)))[0]!.payoutsEnabled).toBe(true);
    expect(await balancesOf(theirs.business.id)).toEqual(before);
  });
});
