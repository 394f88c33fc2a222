import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { changeMemberRoleAs, getTeamView, inviteStaffAs, removeMemberAs, resendInvitationAs, revokeInvitationAs } from "@/lib/dashboard/team-actions";
import { runPayoutCommand } from "@/lib/dashboard/payouts-actions";
import { confirmTwoFactorAs, requireTwoFactorForBusinessAs, resetMemberTwoFactorAs } from "@/lib/dashboard/two-factor-actions";
import { setApprovalThreshold } from "@/lib/payouts/payout-approvals";
import { payoutBusiness, uniqueEmail } from "@/lib/payouts/payout-test-helpers";
import { acceptInvitation } from "@/lib/staff/accept-invitation";
import { createUser } from "@/lib/staff/create-user";
import type { Staff } from "@/lib/staff/current-staff";
import { inviteStaff } from "@/lib/staff/invitations";
import { loadStaff } from "@/lib/staff/load-staff";
import { enrollTwoFactor } from "@/lib/staff/manage-two-factor";
import { createTestBusiness, testDb, uniqueName } from "@/test/helpers";
import { listAuditEvents } from "./list-audit-events";
import type { AuditAction } from "./record-audit";

// The Team page's invitations (sent, sent again, revoked, accepted), two-factor changes and the
// decisions on four-eyes requests are in the audit log, each under the person who acted (issue 41,
// item 19). lib/audit/staff-actions-coverage.test.ts points here for these actions.

const client = { ip: "192.0.2.45", userAgent: "Mozilla/5.0 (audit test)" };

async function staffOf(businessId: string, role: "owner" | "manager"): Promise<Staff> {
  const { userId } = await createUser(testDb(), { email: `${uniqueName(role)}@example.com`, password: "a staff password", businessId, role });
  return { ...(await loadStaff(testDb(), { userId }, businessId))!, client };
}

const events = async (businessId: string, action: AuditAction) => (await listAuditEvents(testDb(), businessId, { action, limit: 100 })).data;

describe("the audit log records the team's invitations and joins", () => {
  it("invite, resend, revoke, role change and removal under the owner; a join under the one who joins", async () => {
    const { business } = await createTestBusiness();
    const owner = await staffOf(business.id, "owner");
    const form = { business: business.id };
    const email = `${uniqueName("invitee")}@example.com`;
    expect(await inviteStaffAs(testDb(), owner, { ...form, email, role: "manager" })).toMatchObject({ ok: true });
    const [invitation] = (await getTeamView(testDb(), business.id)).invitations;
    expect(await resendInvitationAs(testDb(), owner, { ...form, invitation: invitation!.id })).toMatchObject({ ok: true });
    expect(await revokeInvitationAs(testDb(), owner, { ...form, invitation: invitation!.id })).toMatchObject({ ok: true });
    const asOwner = { actor: { type: "user", email: owner.email }, ip: client.ip, user_agent: client.userAgent, target: { type: "invitation", id: invitation!.id } };
    expect(await events(business.id, "member.invite")).toMatchObject([{ ...asOwner, changes: { email: { to: email }, role: { to: "manager" } } }]);
    expect(await events(business.id, "member.invite_resend")).toMatchObject([asOwner]);
    expect(await events(business.id, "member.invite_revoke")).toMatchObject([{ ...asOwner, changes: { email: { from: email, to: null } } }]);

    // Accepted through the link: nobody signed in; the record names the new member.
    const joiner = `${uniqueName("joiner")}@example.com`;
    const { token } = await inviteStaff(testDb(), { businessId: business.id, email: joiner, role: "manager", inviter: { userId: owner.userId, email: owner.email } });
    const accepted = await acceptInvitation(testDb(), { token, password: "a new staff password", ip: "198.51.100.7", userAgent: "Joiner's browser" });
    expect(await events(business.id, "member.join")).toMatchObject([
      {
        actor: { type: "user", email: joiner },
        ip: "198.51.100.7",
        user_agent: "Joiner's browser",
        target: { type: "user", id: accepted.userId },
        changes: { email: { to: joiner }, role: { to: "manager" } },
      },
    ]);

    expect(await changeMemberRoleAs(testDb(), owner, { ...form, user: accepted.userId, role: "owner" })).toMatchObject({ ok: true });
    expect(await removeMemberAs(testDb(), owner, { ...form, user: accepted.userId })).toMatchObject({ ok: true });
    expect(await events(business.id, "member.role_change")).toMatchObject([{ actor: { email: owner.email }, target: { id: accepted.userId }, changes: { role: { to: "owner" } } }]);
    expect(await events(business.id, "member.remove")).toMatchObject([{ actor: { email: owner.email }, changes: { email: { from: joiner } } }]);
  });
});

describe("the audit log records two-factor changes made from the account and Team pages", () => {
  it("turned on by the member, required by an owner, reset by an owner", async () => {
    const { business } = await createTestBusiness();
    const owner = await staffOf(business.id, "owner");
    const manager = await staffOf(business.id, "manager");
    const { secret } = await enrollTwoFactor(testDb(), { userId: manager.userId });
    const code = new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate();
    expect(await confirmTwoFactorAs(testDb(), manager, { code }, client.ip)).toMatchObject({ ok: true });
    expect(await requireTwoFactorForBusinessAs(testDb(), owner, { business: business.id, required: "on" })).toMatchObject({ ok: true });
    expect(await resetMemberTwoFactorAs(testDb(), owner, { business: business.id, user: manager.userId })).toMatchObject({ ok: true });
    expect(await events(business.id, "member.two_factor_enable")).toMatchObject([{ actor: { email: manager.email }, target: { type: "user", id: manager.userId } }]);
    expect(await events(business.id, "business.settings_update")).toMatchObject([{ actor: { email: owner.email }, changes: { require_two_factor: { from: false, to: true } } }]);
    expect(await events(business.id, "member.two_factor_reset")).toMatchObject([{ actor: { email: owner.email }, target: { type: "user", id: manager.userId } }]);
  });
});

describe("the audit log records four-eyes requests and their decisions", () => {
  it("the request under the one who asked; approve_request and reject_request under the one who decided", async () => {
    const biz = await payoutBusiness(100_000);
    await setApprovalThreshold(testDb(), biz.business.id, 5_000);
    const manager = await staffOf(biz.business.id, "manager");
    const owner = await staffOf(biz.business.id, "owner");
    const run = (staff: Staff, form: Record<string, unknown>) => runPayoutCommand(testDb(), staff, { business: biz.business.id, ...form });
    expect(await run(manager, { intent: "allocate", email: uniqueEmail("big"), amount: "60" })).toMatchObject({ ok: true, message: expect.stringContaining("waits") });
    expect(await run(manager, { intent: "allocate", email: uniqueEmail("big"), amount: "70" })).toMatchObject({ ok: true, message: expect.stringContaining("waits") });
    const requests = await events(biz.business.id, "payout_approval.request");
    expect(requests).toHaveLength(2);
    for (const request of requests) expect(request.actor).toMatchObject({ type: "user", email: manager.email });
    const [second, first] = requests;
    expect(await run(owner, { intent: "approve_request", approval_id: first!.target.id })).toMatchObject({ ok: true });
    expect(await run(owner, { intent: "reject_request", approval_id: second!.target.id })).toMatchObject({ ok: true });
    expect(await events(biz.business.id, "payout_approval.approve")).toMatchObject([
      { actor: { email: owner.email }, target: { type: "payout_approval", id: first!.target.id }, changes: { status: { from: "pending", to: "approved" } } },
    ]);
    expect(await events(biz.business.id, "payout_approval.reject")).toMatchObject([
      { actor: { email: owner.email }, target: { type: "payout_approval", id: second!.target.id }, changes: { status: { from: "pending", to: "rejected" } } },
    ]);
    // The approved run is recorded as the operation itself, under the approver.
    expect(await events(biz.business.id, "payout.allocate")).toMatchObject([{ actor: { email: owner.email }, changes: { amount: { to: 6_000 } } }]);
  });
});
