"use client";

import { useActionState } from "react";
import { useKeptForm } from "@/components/use-kept-form";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { ActionOutcome } from "../_components/action-outcome";
import { FormDialog } from "../_components/form-dialog";
import { changeMemberRoleAction, inviteStaffAction, removeMemberAction, resendInvitationAction, revokeInvitationAction } from "./actions";

/** Invite by e-mail with a role. */
export function InviteForm({ businessId }: { businessId: string }) {
  const { result, pending: inviting, form: inviteForm } = useKeptForm(inviteStaffAction, { resetOnSuccess: true });
  const fieldError = (name: string) => (result && !result.ok ? result.fields?.[name]?.join(", ") : undefined);
  return (
    <form {...inviteForm} className="grid gap-4 sm:grid-cols-[1fr_12rem_auto] sm:items-end">
      <input type="hidden" name="business" value={businessId} />
      <div className="grid gap-1.5">
        <Label htmlFor="invite-email">E-mail</Label>
        <Input id="invite-email" name="email" type="email" autoComplete="off" required aria-invalid={fieldError("email") ? true : undefined} />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="invite-role">Role</Label>
        <Select id="invite-role" name="role" defaultValue="manager">
          <option value="manager">Manager</option>
          <option value="owner">Owner</option>
        </Select>
      </div>
      <Button type="submit" disabled={inviting}>
        Send invitation
      </Button>
      <div className="sm:col-span-3">
        <ActionOutcome result={result} />
      </div>
    </form>
  );
}

/** A member's role and removal. */
export function MemberControls({ businessId, userId, email, role, self }: { businessId: string; userId: string; email: string; role: string; self: boolean }) {
  const [changed, change, changing] = useActionState(changeMemberRoleAction, null);
  const [removed, remove, removing] = useActionState(removeMemberAction, null);
  const selectId = `role-${userId}`;
  return (
    <div className="grid gap-2">
      <div className="flex flex-wrap items-end gap-2">
        <form action={change} className="flex items-end gap-2">
          <input type="hidden" name="business" value={businessId} />
          <input type="hidden" name="user" value={userId} />
          <div className="grid gap-1">
            <Label htmlFor={selectId} className="sr-only">
              Role of {email}
            </Label>
            <Select id={selectId} name="role" defaultValue={role} className="w-36">
              <option value="manager">Manager</option>
              <option value="owner">Owner</option>
            </Select>
          </div>
          <Button type="submit" variant="outline" disabled={changing}>
            Change role
          </Button>
        </form>
        <FormDialog
          trigger={
            <Button type="button" variant="ghost" aria-label={`Remove ${email}`}>
              Remove
            </Button>
          }
          title={`Remove ${email}?`}
          description={`${self ? "You lose" : "They lose"} access to this business at once and signed out; an owner can invite ${self ? "you" : "them"} again.`}
          action={remove}
          pending={removing}
          cancelLabel="Keep"
          submitLabel="Remove"
          submitVariant="destructive"
        >
          <input type="hidden" name="business" value={businessId} />
          <input type="hidden" name="user" value={userId} />
        </FormDialog>
      </div>
      <ActionOutcome result={removed ?? changed} />
    </div>
  );
}

/** Resend or revoke an open invitation. */
export function InvitationControls({ businessId, invitationId, email }: { businessId: string; invitationId: string; email: string }) {
  const [resent, resend, resending] = useActionState(resendInvitationAction, null);
  const [revoked, revoke, revoking] = useActionState(revokeInvitationAction, null);
  return (
    <div className="grid gap-2">
      <div className="flex flex-wrap gap-2">
        <form action={resend}>
          <input type="hidden" name="business" value={businessId} />
          <input type="hidden" name="invitation" value={invitationId} />
          <Button type="submit" variant="outline" disabled={resending} aria-label={`Resend the invitation to ${email}`}>
            Resend
          </Button>
        </form>
        <form action={revoke}>
          <input type="hidden" name="business" value={businessId} />
          <input type="hidden" name="invitation" value={invitationId} />
          <Button type="submit" variant="ghost" disabled={revoking} aria-label={`Revoke the invitation to ${email}`}>
            Revoke
          </Button>
        </form>
      </div>
      <ActionOutcome result={revoked ?? resent} />
    </div>
  );
}
