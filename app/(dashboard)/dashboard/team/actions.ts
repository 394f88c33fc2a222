"use server";

import { revalidatePath } from "next/cache";
import { getDb } from "@/lib/db";
import { formObject, type ActionResult } from "@/lib/dashboard/run-staff-action";
import { staffForAction } from "@/lib/dashboard/staff-for-action";
import { saveApprovalThresholdAs } from "@/lib/dashboard/payout-approval-actions";
import { changeMemberRoleAs, inviteStaffAs, removeMemberAs, resendInvitationAs, revokeInvitationAs } from "@/lib/dashboard/team-actions";
import type { Db } from "@/db/client";
import type { Staff } from "@/lib/staff/current-staff";

type TeamResult = ActionResult | null;

async function teamAction(form: FormData, run: (db: Db, staff: Staff, input: unknown) => Promise<ActionResult>): Promise<TeamResult> {
  const found = await staffForAction("team");
  if ("refused" in found) return found.refused;
  const result = await run(await getDb(), found.staff, formObject(form));
  revalidatePath("/dashboard/team");
  return result;
}

// Invite by e-mail with a role (owners and support).
export async function inviteStaffAction(_previous: TeamResult, form: FormData): Promise<TeamResult> {
  return teamAction(form, inviteStaffAs);
}

// Send an invitation again with a new link.
export async function resendInvitationAction(_previous: TeamResult, form: FormData): Promise<TeamResult> {
  return teamAction(form, resendInvitationAs);
}

// Revoke an open invitation.
export async function revokeInvitationAction(_previous: TeamResult, form: FormData): Promise<TeamResult> {
  return teamAction(form, revokeInvitationAs);
}

// Change a member's role.
export async function changeMemberRoleAction(_previous: TeamResult, form: FormData): Promise<TeamResult> {
  return teamAction(form, changeMemberRoleAs);
}

// Remove a member.
export async function removeMemberAction(_previous: TeamResult, form: FormData): Promise<TeamResult> {
  return teamAction(form, removeMemberAs);
}

// The four-eyes threshold on payouts.
export async function saveApprovalThresholdAction(_previous: TeamResult, form: FormData): Promise<TeamResult> {
  return teamAction(form, saveApprovalThresholdAs);
}
