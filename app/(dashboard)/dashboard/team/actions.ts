"use server";

import { revalidatePath } from "next/cache";
import { saveApprovalThresholdAs } from "@/lib/dashboard/payout-approval-actions";
import { serveStaffAction } from "@/lib/dashboard/serve-staff-action";
import type { ActionState, StaffActionRunner } from "@/lib/dashboard/staff-action";
import { requireTwoFactorForBusinessAs, resetMemberTwoFactorAs } from "@/lib/dashboard/two-factor-actions";
import { changeMemberRoleAs, inviteStaffAs, removeMemberAs, resendInvitationAs, revokeInvitationAs } from "@/lib/dashboard/team-actions";

async function teamAction(form: FormData, runner: StaffActionRunner): Promise<ActionState> {
  const result = await serveStaffAction(runner, form);
  if (result.ok) revalidatePath("/dashboard/team");
  return result;
}

// Invite by e-mail with a role (owners and support).
export async function inviteStaffAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  return teamAction(form, inviteStaffAs);
}

// Send an invitation again with a new link.
export async function resendInvitationAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  return teamAction(form, resendInvitationAs);
}

// Revoke an open invitation.
export async function revokeInvitationAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  return teamAction(form, revokeInvitationAs);
}

// Change a member's role.
export async function changeMemberRoleAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  return teamAction(form, changeMemberRoleAs);
}

// Remove a member.
export async function removeMemberAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  return teamAction(form, removeMemberAs);
}

// The four-eyes threshold on payouts.
export async function saveApprovalThresholdAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  return teamAction(form, saveApprovalThresholdAs);
}

// Reset a member's two-factor sign-in (their sessions end; decision 0048).
export async function resetMemberTwoFactorAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  return teamAction(form, resetMemberTwoFactorAs);
}

// The business setting "require two-factor sign-in for all staff" (owners only).
export async function requireTwoFactorAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  return teamAction(form, requireTwoFactorForBusinessAs);
}
