import { z } from "zod";
import type { Db } from "@/db/client";
import { inviteStaff, listInvitations, resendInvitation, revokeInvitation, type InvitationView } from "@/lib/staff/invitations";
import { changeMemberRole, listMembers, removeMember, type MemberView } from "@/lib/staff/team-members";
import type { Staff } from "@/lib/staff/current-staff";
import { recordAudit } from "@/lib/audit/record-audit";
import { staffAction } from "./staff-action";

/** What the Team page shows. */
export type TeamView = { members: MemberView[]; invitations: InvitationView[] };

export async function getTeamView(db: Db, businessId: string): Promise<TeamView> {
  return { members: await listMembers(db, businessId), invitations: await listInvitations(db, businessId) };
}

const role = z.enum(["owner", "manager"], { error: "Choose owner or manager" });
const userId = z.string({ error: "member is required" }).regex(/^usr_[0-9A-Za-z_]{1,64}$/, { error: "Unknown member" });
const invitationId = z.string({ error: "invitation is required" }).regex(/^inv_[0-9A-Z]{26}$/, { error: "Unknown invitation" });

const inviteSchema = z.object({ email: z.string({ error: "Enter the e-mail address to invite" }).max(320), role });
const roleSchema = z.object({ user: userId, role });
const memberSchema = z.object({ user: userId });
const invitationSchema = z.object({ invitation: invitationId });

const inviter = (staff: Staff) => ({ userId: staff.userId, email: staff.email });

/** Invite an e-mail with a role (owners and support): the invitation goes out by e-mail. */
export const inviteStaffAs = staffAction({
  permission: "team",
  schema: inviteSchema,
  run: async ({ db, staff, businessId, input }) => {
    const { invitation } = await inviteStaff(db, { businessId, email: input.email, role: input.role, inviter: inviter(staff) });
    return { message: `Invitation sent to ${invitation.email} as ${invitation.role}; the link works for 7 days, once.` };
  },
});

/** Send an invitation again with a new link (the old one stops working). */
export const resendInvitationAs = staffAction({
  permission: "team",
  schema: invitationSchema,
  run: async ({ db, staff, businessId, input }) => {
    const { invitation } = await resendInvitation(db, { businessId, invitationId: input.invitation, inviter: inviter(staff) });
    return { message: `Invitation sent again to ${invitation.email}; the earlier link no longer works.` };
  },
});

/** Revoke an invitation: its link stops working. */
export const revokeInvitationAs = staffAction({
  permission: "team",
  schema: invitationSchema,
  run: async ({ db, businessId, input }) => {
    const { email } = await revokeInvitation(db, { businessId, invitationId: input.invitation });
    return { message: `The invitation to ${email} is revoked.` };
  },
});

/** Change a member's role (the last owner cannot be demoted). */
export const changeMemberRoleAs = staffAction({
  permission: "team",
  schema: roleSchema,
  run: async ({ db, businessId, input }) => {
    const changed = await changeMemberRole(db, { businessId, userId: input.user, role: input.role });
    if (changed.changed) await recordAudit(db, { businessId, action: "member.role_change", target: { type: "user", id: input.user }, changes: { role: { from: null, to: changed.role } } });
    return { message: changed.changed ? `${changed.email} is now ${changed.role}.` : `${changed.email} already is ${changed.role}.` };
  },
});

/** Remove a member (never the last owner): their sessions end at once. */
export const removeMemberAs = staffAction({
  permission: "team",
  schema: memberSchema,
  run: async ({ db, businessId, input }) => {
    const removed = await removeMember(db, { businessId, userId: input.user });
    await recordAudit(db, { businessId, action: "member.remove", target: { type: "user", id: input.user }, changes: { email: { from: removed.email, to: null } } });
    return { message: `${removed.email} is removed from the business and signed out.` };
  },
});
