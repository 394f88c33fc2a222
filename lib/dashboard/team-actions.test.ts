import { describe, expect, it } from "vitest";
import { createUser } from "@/lib/staff/create-user";
import { loadStaff } from "@/lib/staff/load-staff";
import { getMail, listMail } from "@/lib/mail/list-mail";
import { createTestBusiness, testDb, uniqueName } from "@/test/helpers";
import { changeMemberRoleAs, getTeamView, inviteStaffAs, removeMemberAs, resendInvitationAs, revokeInvitationAs } from "./team-actions";

async function staffOf(businessId: string, role: "owner" | "manager") {
  const { userId } = await createUser(testDb(), { email: `${uniqueName(role)}@example.com`, password: "a staff password", businessId, role });
  return (await loadStaff(testDb(), { userId }, businessId))!;
}

describe("the Team page's actions", () => {
  it("owners invite, resend, revoke, change roles and remove; managers may not; bad input changes nothing", async () => {
    const { business } = await createTestBusiness();
    const owner = await staffOf(business.id, "owner");
    const manager = await staffOf(business.id, "manager");
    const form = { business: business.id };
    const email = `${uniqueName("invitee")}@example.com`;

    expect(await inviteStaffAs(testDb(), manager, { ...form, email, role: "manager" })).toMatchObject({ ok: false, error: "forbidden" });
    expect(await inviteStaffAs(testDb(), owner, { ...form, email, role: "admin" })).toMatchObject({ ok: false, error: "validation_failed" });
    expect(await inviteStaffAs(testDb(), owner, { ...form, email: "nope", role: "manager" })).toMatchObject({ ok: false, error: "validation_failed" });
    expect(await inviteStaffAs(testDb(), owner, { business: "biz_other", email, role: "manager" })).toMatchObject({ ok: false, error: "business_changed" });
    expect((await getTeamView(testDb(), business.id)).invitations).toEqual([]);

    expect(await inviteStaffAs(testDb(), owner, { ...form, email, role: "manager" })).toMatchObject({ ok: true });
    expect(await inviteStaffAs(testDb(), owner, { ...form, email, role: "owner" })).toMatchObject({ ok: false, error: "already_invited" });
    expect(await inviteStaffAs(testDb(), owner, { ...form, email: manager.email, role: "owner" })).toMatchObject({ ok: false, error: "already_member" });
    const [invitation] = (await getTeamView(testDb(), business.id)).invitations;
    expect(await resendInvitationAs(testDb(), manager, { ...form, invitation: invitation!.id })).toMatchObject({ ok: false, error: "forbidden" });
    expect(await resendInvitationAs(testDb(), owner, { ...form, invitation: invitation!.id })).toMatchObject({ ok: true });
    expect(await revokeInvitationAs(testDb(), owner, { ...form, invitation: invitation!.id })).toMatchObject({ ok: true });
    expect(await revokeInvitationAs(testDb(), owner, { ...form, invitation: invitation!.id })).toMatchObject({ ok: false, error: "invitation_not_found" });
    expect(await revokeInvitationAs(testDb(), owner, { ...form, invitation: "inv_bad" })).toMatchObject({ ok: false, error: "validation_failed" });

    expect(await changeMemberRoleAs(testDb(), manager, { ...form, user: manager.userId, role: "owner" })).toMatchObject({ ok: false, error: "forbidden" });
    expect(await changeMemberRoleAs(testDb(), owner, { ...form, user: owner.userId, role: "manager" })).toMatchObject({ ok: false, error: "last_owner" });
    expect(await removeMemberAs(testDb(), owner, { ...form, user: owner.userId })).toMatchObject({ ok: false, error: "last_owner" });
    expect(await removeMemberAs(testDb(), owner, { ...form, user: manager.userId })).toMatchObject({ ok: true });
    expect((await getTeamView(testDb(), business.id)).members.map((m) => m.userId)).toEqual([owner.userId]);

    // The invitations went out as messages, listed newest first on the mailbox page.
    const mailbox = await listMail(testDb(), { to: email.toUpperCase() });
    expect(mailbox.data.map((m) => m.kind)).toEqual(["staff_invitation", "staff_invitation"]);
    expect(await getMail(testDb(), mailbox.data[0]!.id)).toMatchObject({ toAddress: email });
    expect(await getMail(testDb(), "../etc")).toBeNull();
  });
});
