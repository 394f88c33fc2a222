"use client";

import { useActionState } from "react";
import { useKeptForm } from "@/components/use-kept-form";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { ActionOutcome } from "../_components/action-outcome";
import { FormDialog } from "../_components/form-dialog";
import { requireTwoFactorAction, resetMemberTwoFactorAction } from "./actions";

/** The business setting "require two-factor sign-in for all staff" (owners only; decision 0048). */
export function RequireTwoFactorForm({ businessId, required, owner }: { businessId: string; required: boolean; owner: boolean }) {
  const { result, pending: saving, form } = useKeptForm(requireTwoFactorAction);
  return (
    <form {...form} className="grid max-w-md gap-3">
      <input type="hidden" name="business" value={businessId} />
      <div className="grid gap-1.5">
        <Label htmlFor="require-two-factor">Two-factor sign-in for every member</Label>
        <Select id="require-two-factor" name="required" defaultValue={required ? "on" : "off"} disabled={!owner}>
          <option value="off">Optional</option>
          <option value="on">Required</option>
        </Select>
      </div>
      {owner ? (
        <div>
          <Button type="submit" variant="outline" disabled={saving}>
            Save
          </Button>
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">Only an owner changes this.</p>
      )}
      <ActionOutcome result={result} />
    </form>
  );
}

/** An owner resets a member's two-factor sign-in (a lost phone): their sessions end at once. */
export function ResetTwoFactorControl({ businessId, userId, email }: { businessId: string; userId: string; email: string }) {
  const [result, reset, resetting] = useActionState(resetMemberTwoFactorAction, null);
  return (
    <div className="grid gap-2">
      <FormDialog
        trigger={
          <Button type="button" variant="ghost" aria-label={`Reset two-factor sign-in of ${email}`}>
            Reset two-factor
          </Button>
        }
        title={`Reset two-factor sign-in of ${email}?`}
        description="Their authenticator and recovery codes stop working and every session of theirs ends at once; they sign in with their password and set two-factor up again."
        action={reset}
        pending={resetting}
        cancelLabel="Keep"
        submitLabel="Reset"
        submitVariant="destructive"
      >
        <input type="hidden" name="business" value={businessId} />
        <input type="hidden" name="user" value={userId} />
      </FormDialog>
      <ActionOutcome result={result} />
    </div>
  );
}
