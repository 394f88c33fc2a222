import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { payoutApprovals, payoutWithdrawals } from "@/db/schema";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import { asUser, balancesOf, payoutBusiness, payoutUser, uniqueEmail } from "@/lib/payouts/payout-test-helpers";
import { needsApproval, setApprovalThreshold } from "@/lib/payouts/payout-approvals";
import { createUser } from "@/lib/staff/create-user";
import { loadStaff } from "@/lib/staff/load-staff";
import { testDb, uniqueName } from "@/test/helpers";
import { saveApprovalThresholdAs } from "./payout-approval-actions";
import { runPayoutCommand } from "./payouts-actions";

verifyLedgerAfterEach();

async function staffOf(businessId: string, role: "owner" | "manager") {
  const { userId } = await createUser(testDb(), { email: `${uniqueName(role)}@example.com`, password: "a staff password", businessId, role });
  return (await loadStaff(testDb(), { userId }, businessId))!;
}

const approvalsOf = (businessId: string) => testDb().select().from(payoutApprovals).where(eq(payoutApprovals.businessId, businessId));

describe("four eyes on money leaving (decision 0078)", () => {
  it("needs approval strictly above the threshold, never without one", () => {
    expect(needsApproval(null, 1_000_000)).toBe(false);
    expect(needsApproval(10_000, 10_000)).toBe(false);
    expect(needsApproval(10_000, 10_001)).toBe(true);
    expect(needsApproval(0, 1)).toBe(true);
  });

  it("an allocation above the threshold waits; the one who asked cannot approve it, another staff member can", async () => {
    const biz = await payoutBusiness(100_000);
    const owner = await staffOf(biz.business.id, "owner");
    const manager = await staffOf(biz.business.id, "manager");
    expect(await saveApprovalThresholdAs(testDb(), manager, { business: biz.business.id, threshold: "100" })).toMatchObject({ ok: false, error: "forbidden" });
    expect(await saveApprovalThresholdAs(testDb(), owner, { business: biz.business.id, threshold: "lots" })).toMatchObject({ ok: false, error: "validation_failed" });
    expect(await saveApprovalThresholdAs(testDb(), owner, { business: biz.business.id, threshold: "100.00" })).toMatchObject({ ok: true });

    const form = { business: biz.business.id };
    const small = await runPayoutCommand(testDb(), manager, { ...form, intent: "allocate", email: uniqueEmail("small"), amount: "100.00" });
    expect(small).toMatchObject({ ok: true, message: expect.stringContaining("Allocated $100.00") });
    const before = await balancesOf(biz.business.id);
    const email = uniqueEmail("big");
    const asked = await runPayoutCommand(testDb(), manager, { ...form, intent: "allocate", email, amount: "400.00" });
    expect(asked).toMatchObject({ ok: true, message: expect.stringContaining("waits for another staff member") });
    expect(await balancesOf(biz.business.id)).toEqual(before);
    const [request] = (await approvalsOf(biz.business.id)).filter((a) => a.status === "pending");
    expect(request).toMatchObject({ kind: "allocate", amount: 40_000, requestedBy: manager.userId });

    const self = await runPayoutCommand(testDb(), manager, { ...form, intent: "approve_request", approval_id: request!.id });
    expect(self).toMatchObject({ ok: false, error: "four_eyes" });
    expect(await balancesOf(biz.business.id)).toEqual(before);
    const approved = await runPayoutCommand(testDb(), owner, { ...form, intent: "approve_request", approval_id: request!.id });
    expect(approved).toMatchObject({ ok: true, message: expect.stringContaining(`Approved the allocation of $400.00 to ${email}`) });
    expect((await balancesOf(biz.business.id)).payout_balance).toBe(before.payout_balance - 40_000);
    const again = await runPayoutCommand(testDb(), owner, { ...form, intent: "approve_request", approval_id: request!.id });
    expect(again).toMatchObject({ ok: false, error: "approval_decided" });
    // The database holds the rule too.
    await expect(testDb().update(payoutApprovals).set({ decidedBy: manager.userId }).where(eq(payoutApprovals.id, request!.id))).rejects.toThrow();
  });

  it("a withdrawal's approval above the threshold waits once; rejecting the request moves nothing", async () => {
    const biz = await payoutBusiness(100_000);
    const owner = await staffOf(biz.business.id, "owner");
    const manager = await staffOf(biz.business.id, "manager");
    await setApprovalThreshold(testDb(), biz.business.id, 5_000);
    const user = await payoutUser(biz.secretKey, 20_000);
    const res = await asUser<{ id: string }>(user.hash, "POST", "/payout/operations/withdrawals", { amount: 10_000, destination: "IBAN DE89 3704 0044 0532 0130 00" });
    const form = { business: biz.business.id, withdrawal_id: res.body.id };
    expect(await runPayoutCommand(testDb(), owner, { ...form, intent: "complete" })).toMatchObject({ ok: true, message: expect.stringContaining("waits for another staff member") });
    expect(await runPayoutCommand(testDb(), owner, { ...form, intent: "complete" })).toMatchObject({ ok: false, error: "approval_already_requested" });
    const status = async () => (await testDb().select().from(payoutWithdrawals).where(eq(payoutWithdrawals.id, res.body.id)))[0]!.status;
    expect(await status()).toBe("pending");
    const [request] = await approvalsOf(biz.business.id);
    expect(await runPayoutCommand(testDb(), manager, { business: biz.business.id, intent: "reject_request", approval_id: request!.id })).toMatchObject({ ok: true });
    expect(await status()).toBe("pending");
    // Asked again, approved by the other: paid out.
    await runPayoutCommand(testDb(), owner, { ...form, intent: "complete" });
    const pending = (await approvalsOf(biz.business.id)).find((a) => a.status === "pending")!;
    expect(await runPayoutCommand(testDb(), manager, { business: biz.business.id, intent: "approve_request", approval_id: pending.id })).toMatchObject({ ok: true });
    expect(await status()).toBe("completed");
    // Another business cannot decide it.
    const other = await payoutBusiness(1000);
    const stranger = await staffOf(other.business.id, "owner");
    expect(await runPayoutCommand(testDb(), stranger, { business: other.business.id, intent: "approve_request", approval_id: pending.id })).toMatchObject({ ok: false, error: "approval_not_found" });
  });
});
