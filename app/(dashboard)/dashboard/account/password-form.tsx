"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";
import { ActionOutcome } from "../_components/action-outcome";
import { changePasswordAction } from "./actions";

const fields = [
  { name: "current", label: "Current password", autoComplete: "current-password" },
  { name: "password", label: "New password (at least 10 characters)", autoComplete: "new-password" },
  { name: "confirm", label: "New password again", autoComplete: "new-password" },
] as const;

export function PasswordForm() {
  const [result, change, changing] = useActionState(changePasswordAction, null);
  return (
    <form action={change} className="grid max-w-md gap-4">
      {fields.map((f) => {
        const error = result && !result.ok ? result.fields?.[f.name]?.join(", ") : undefined;
        return (
          <div key={f.name} className="grid gap-1.5">
            <Label htmlFor={`account-${f.name}`}>{f.label}</Label>
            <Input id={`account-${f.name}`} name={f.name} type="password" autoComplete={f.autoComplete} required aria-invalid={error ? true : undefined} />
          </div>
        );
      })}
      <div>
        <Button type="submit" disabled={changing}>
          Change password
        </Button>
      </div>
      <ActionOutcome result={result} />
    </form>
  );
}
