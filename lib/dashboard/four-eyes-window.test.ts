import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { businesses, payoutApprovals } from "@/db/schema";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import { asUser, balancesOf, payoutBusiness, payoutUser, uniqueEmail } from "@/lib/payouts/payout-test-helpers";
import { setApprovalThreshold } from "@/lib/payouts/payout-approvals";
import { createUser } from "@/lib/staff/create-user";
import { loadStaff } from "@/lib/staff/load-staff";
import { testDb, uniqueName } from "@/test/helpers";
import { runPayoutCommand } from "./payouts-actions";

// Four eyes per payee over a rolling 24 hours (decision 0061, amending 0078): splitting an amount
// into pieces at or under the threshold does not let one staff member move it alone.

verifyLedgerAfterEach();

async function staffOf(businessId: string, role: "owner" | "manager") {
  const { userId } = await createUser(testDb(), { email: `${uniqueName(role)}@example.com`, password: "a staff password", businessId, role });
  return (await loadStaff(testDb(), { userId }, businessId))!;
}

const pendingOf = (businessId: string) =>
  testDb()
    .select()
    .from(payoutApprovals)
    .where(and(eq(payoutApprovals.businessId, businessId), eq(payoutApprovals.status, "pending")));

/** A business with $1,000 in its payout balance, a $50 threshold, and a manager. */
async function fiftyDollarRule() {
  const biz = await payoutBusiness(100_000);
  await setApprovalThreshold(testDb(), biz.business.id, 5_000);
  const manager = await staffOf(biz.business.id, "manager");
  const run = (form: Record<string, unknown>) => runPayoutCommand(testDb(), manager, { business: biz.business.id, ...form });
  return { biz, manager, run };
}

describe("four eyes add up per payee over 24 hours (decision 0061)", () => {
  it("two allocations to one payee, each at the threshold: the second waits for a second staff member", async () => {
    const { biz, run } = await fiftyDollarRule();
    const email = uniqueEmail("split");
    expect(await run({ intent: "allocate", email, amount: "50" })).toMatchObject({ ok: true, message: expect.stringContaining("Allocated $50.00") });
    const before = await balancesOf(biz.business.id);
    const second = await run({ intent: "allocate", email: email.toUpperCase(), amount: "50" });
    expect(second).toMatchObject({
      ok: true,
      message: expect.stringMatching(/last 24 hours.*\$100\.00.*above the \$50\.00 threshold.*another staff member/),
    });
    expect(await balancesOf(biz.business.id)).toEqual(before);
    expect(await pendingOf(biz.business.id)).toMatchObject([{ kind: "allocate", amount: 5_000 }]);
    // Another payee has a total of its own.
    expect(await run({ intent: "allocate", email: uniqueEmail("other"), amount: "50" })).toMatchObject({ ok: true, message: expect.stringContaining("Allocated") });
  });

  it("allocations older than 24 hours (the business's clock) no longer count", async () => {
    const { biz, run } = await fiftyDollarRule();
    const email = uniqueEmail("daily");
    expect(await run({ intent: "allocate", email, amount: "50" })).toMatchObject({ message: expect.stringContaining("Allocated") });
    await testDb().update(businesses).set({ clockOffsetMs: 24 * 3600_000 + 60_000 }).where(eq(businesses.id, biz.business.id));
    expect(await run({ intent: "allocate", email, amount: "50" })).toMatchObject({ message: expect.stringContaining("Allocated") });
    expect(await run({ intent: "allocate", email, amount: "0.01" })).toMatchObject({ message: expect.stringContaining("waits") });
  });

  it("two withdrawal approvals for one payee, each at the threshold: the second waits", async () => {
    const { biz, run } = await fiftyDollarRule();
    const user = await payoutUser(biz.secretKey, 20_000);
    const ask = async () =>
      (await asUser<{ id: string }>(user.hash, "POST", "/payout/operations/withdrawals", { amount: 5_000, destination: "IBAN DE89 3704 0044 0532 0130 00" })).body.id;
    const first = await ask();
    const second = await ask();
    expect(await run({ intent: "complete", withdrawal_id: first })).toMatchObject({ ok: true, message: expect.stringContaining("approved") });
    expect(await run({ intent: "complete", withdrawal_id: second })).toMatchObject({
      ok: true,
      message: expect.stringMatching(/last 24 hours.*\$100\.00.*above the \$50\.00 threshold/),
    });
    expect(await pendingOf(biz.business.id)).toMatchObject([{ kind: "complete_withdrawal", amount: 5_000 }]);
  });

  it("parallel allocations to one payee cannot both slip under the threshold", async () => {
    const { biz, run } = await fiftyDollarRule();
    const email = uniqueEmail("race");
    // On PostgreSQL these run on separate connections at once; PGlite serializes them.
    const answers = await Promise.all(Array.from({ length: 6 }, () => run({ intent: "allocate", email, amount: "30" })));
    for (const answer of answers) expect(answer).toMatchObject({ ok: true });
    const ran = answers.filter((a) => a.ok && a.message.startsWith("Allocated"));
    expect(ran, JSON.stringify(answers)).toHaveLength(1);
    expect(await pendingOf(biz.business.id)).toHaveLength(5);
    expect((await balancesOf(biz.business.id)).payout_balance).toBe(100_000 - 3_000);
  });
});
