import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { invitations, mailMessages, memberships } from "@/db/schema";
import { ConflictError, NotFoundError, ValidationError } from "@/lib/errors";
import { createTestBusiness, testDb, uniqueName } from "@/test/helpers";
import { acceptInvitation, InvalidInvitationError } from "./accept-invitation";
import { authenticate } from "./authenticate";
import { createUser } from "./create-user";
import { StaffInputError } from "./errors";
import { invitationLifetimeMs, inviteStaff, listInvitations, resendInvitation, revokeInvitation } from "./invitations";

let counter = 0;
const ip = () => `192.0.2.${(++counter % 250) + 1}`;

async function businessWithOwner() {
  const { business } = await createTestBusiness({ name: uniqueName("Team shop") });
  const email = `${uniqueName("owner")}@example.com`;
  const { userId } = await createUser(testDb(), { email, password: "the owner's password", businessId: business.id, role: "owner" });
  return { businessId: business.id, businessName: business.name, inviter: { userId, email } };
}

const invitationMails = (to: string) =>
  testDb().select().from(mailMessages).where(and(eq(mailMessages.toAddress, to), eq(mailMessages.kind, "staff_invitation")));

const roleOf = async (businessId: string, userId: string) =>
  (await testDb().select().from(memberships).where(and(eq(memberships.businessId, businessId), eq(memberships.userId, userId))))[0]?.role;

describe("staff invitations (decision 0044)", () => {
  it("e-mails a link that makes a new account with the role, once", async () => {
    const { businessId, businessName, inviter } = await businessWithOwner();
    const email = `${uniqueName("new")}@example.com`;
    const { token, invitation } = await inviteStaff(testDb(), { businessId, email: ` ${email.toUpperCase()} `, role: "manager", inviter });
    expect(invitation).toMatchObject({ email, role: "manager", invitedBy: inviter.email, expired: false });
    const [mail] = await invitationMails(email);
    expect(mail!.subject).toContain(businessName);
    expect(mail!.textBody).toContain(`/dashboard/invitation?token=${token}`);
    expect(mail!.htmlBody).toContain(businessName);
    // Only the digest is stored.
    expect(JSON.stringify(await testDb().select().from(invitations).where(eq(invitations.businessId, businessId)))).not.toContain(token);

    await expect(acceptInvitation(testDb(), { token, password: "short", ip: ip() })).rejects.toBeInstanceOf(StaffInputError);
    const accepted = await acceptInvitation(testDb(), { token, password: "a new staff password", ip: ip() });
    expect(accepted).toMatchObject({ email, businessId, userCreated: true });
    expect(await roleOf(businessId, accepted.userId)).toBe("manager");
    expect(await authenticate(testDb(), { email, password: "a new staff password", ip: ip() })).toMatchObject({ ok: true });
    expect(await listInvitations(testDb(), businessId)).toEqual([]);

    await expect(acceptInvitation(testDb(), { token, password: "another password 2", ip: ip() })).rejects.toBeInstanceOf(InvalidInvitationError);
    expect(await authenticate(testDb(), { email, password: "a new staff password", ip: ip() })).toMatchObject({ ok: true });
  });

  it("lets an existing account join with its own password; a wrong one spends nothing", async () => {
    const { businessId, inviter } = await businessWithOwner();
    const other = await businessWithOwner();
    const { token } = await inviteStaff(testDb(), { businessId, email: other.inviter.email, role: "owner", inviter });
    await expect(acceptInvitation(testDb(), { token, password: "not their password", ip: ip() })).rejects.toThrow("Wrong password");
    expect(await roleOf(businessId, other.inviter.userId)).toBeUndefined();
    const accepted = await acceptInvitation(testDb(), { token, password: "the owner's password", ip: ip() });
    expect(accepted).toMatchObject({ userId: other.inviter.userId, userCreated: false });
    expect(await roleOf(businessId, other.inviter.userId)).toBe("owner");
    expect(await roleOf(other.businessId, other.inviter.userId)).toBe("owner");
  });

  it("refuses expired, revoked, resent-over and made-up links, changing nothing", async () => {
    const { businessId, inviter } = await businessWithOwner();
    const long = new Date(Date.now() - invitationLifetimeMs - 60_000);
    const expired = await inviteStaff(testDb(), { businessId, email: `${uniqueName("late")}@example.com`, role: "manager", inviter, now: long });
    expect((await listInvitations(testDb(), businessId))[0]).toMatchObject({ expired: true });
    await expect(acceptInvitation(testDb(), { token: expired.token, password: "a good password", ip: ip() })).rejects.toBeInstanceOf(InvalidInvitationError);

    const email = `${uniqueName("revoked")}@example.com`;
    const revoked = await inviteStaff(testDb(), { businessId, email, role: "manager", inviter });
    await revokeInvitation(testDb(), { businessId, invitationId: revoked.invitation.id });
    await expect(acceptInvitation(testDb(), { token: revoked.token, password: "a good password", ip: ip() })).rejects.toBeInstanceOf(InvalidInvitationError);
    await expect(revokeInvitation(testDb(), { businessId, invitationId: revoked.invitation.id })).rejects.toBeInstanceOf(NotFoundError);

    const resent = await inviteStaff(testDb(), { businessId, email: `${uniqueName("resent")}@example.com`, role: "owner", inviter });
    const again = await resendInvitation(testDb(), { businessId, invitationId: resent.invitation.id, inviter });
    expect(await invitationMails(resent.invitation.email)).toHaveLength(2);
    await expect(acceptInvitation(testDb(), { token: resent.token, password: "a good password", ip: ip() })).rejects.toBeInstanceOf(InvalidInvitationError);
    expect((await acceptInvitation(testDb(), { token: again.token, password: "a good password", ip: ip() })).businessId).toBe(businessId);

    for (const token of ["", "x".repeat(43), "../../etc/passwd"])
      await expect(acceptInvitation(testDb(), { token, password: "a good password", ip: ip() })).rejects.toBeInstanceOf(InvalidInvitationError);
    // Another business's owner cannot revoke or resend this business's invitations.
    const open = await inviteStaff(testDb(), { businessId, email: `${uniqueName("mine")}@example.com`, role: "manager", inviter });
    const other = await businessWithOwner();
    await expect(revokeInvitation(testDb(), { businessId: other.businessId, invitationId: open.invitation.id })).rejects.toBeInstanceOf(NotFoundError);
    await expect(resendInvitation(testDb(), { businessId: other.businessId, invitationId: open.invitation.id, inviter: other.inviter })).rejects.toBeInstanceOf(NotFoundError);
  });

  it("refuses inviting a member, inviting twice, a bad e-mail or role; an expired invitation is replaced", async () => {
    const { businessId, inviter } = await businessWithOwner();
    await expect(inviteStaff(testDb(), { businessId, email: inviter.email.toUpperCase(), role: "manager", inviter })).rejects.toMatchObject({ code: "already_member" });
    const email = `${uniqueName("twice")}@example.com`;
    await inviteStaff(testDb(), { businessId, email, role: "manager", inviter });
    const second = inviteStaff(testDb(), { businessId, email: email.toUpperCase(), role: "owner", inviter });
    await expect(second).rejects.toBeInstanceOf(ConflictError);
    await expect(second).rejects.toMatchObject({ code: "already_invited" });
    expect(await invitationMails(email)).toHaveLength(1);
    await expect(inviteStaff(testDb(), { businessId, email: "not an e-mail", role: "manager", inviter })).rejects.toBeInstanceOf(ValidationError);
    await expect(inviteStaff(testDb(), { businessId, email: `${uniqueName("x")}@example.com`, role: "admin", inviter })).rejects.toBeInstanceOf(ValidationError);

    const lateEmail = `${uniqueName("again")}@example.com`;
    await inviteStaff(testDb(), { businessId, email: lateEmail, role: "manager", inviter, now: new Date(Date.now() - invitationLifetimeMs - 1000) });
    const fresh = await inviteStaff(testDb(), { businessId, email: lateEmail, role: "owner", inviter });
    expect(fresh.invitation).toMatchObject({ role: "owner", expired: false });
    expect((await listInvitations(testDb(), businessId)).filter((i) => i.email === lateEmail)).toHaveLength(1);
  });

  it("two parallel acceptances of one link pass once", async () => {
    const { businessId, inviter } = await businessWithOwner();
    const { token } = await inviteStaff(testDb(), { businessId, email: `${uniqueName("race")}@example.com`, role: "manager", inviter });
    const results = await Promise.allSettled([
      acceptInvitation(testDb(), { token, password: "first racer password", ip: ip() }),
      acceptInvitation(testDb(), { token, password: "second racer password", ip: ip() }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(InvalidInvitationError);
  });
});
