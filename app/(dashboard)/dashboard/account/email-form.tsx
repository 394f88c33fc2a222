"use client";

import { useKeptForm } from "@/components/use-kept-form";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";
import { ActionOutcome } from "../_components/action-outcome";
import { requestEmailChangeAction } from "./actions";

/** New e-mail, current password and, with two-factor sign-in on, a code (decision 0052). */
export function EmailForm({ askCode }: { askCode: boolean }) {
  const { result, pending: requesting, form } = useKeptForm(requestEmailChangeAction);
  const errorOf = (name: string) => (result && !result.ok ? result.fields?.[name]?.join(", ") : undefined);
  const fields = [
    { name: "email", label: "New e-mail", type: "email", autoComplete: "email" },
    { name: "current", label: "Current password", type: "password", autoComplete: "current-password" },
    ...(askCode ? [{ name: "code", label: "Code from your authenticator app (or a recovery code)", type: "text", autoComplete: "one-time-code" }] : []),
  ];
  return (
    <form {...form} className="grid max-w-md gap-4">
      {fields.map((f) => {
        const error = errorOf(f.name);
        return (
          <div key={f.name} className="grid gap-1.5">
            <Label htmlFor={`email-change-${f.name}`}>{f.label}</Label>
            <Input
              id={`email-change-${f.name}`}
              name={f.name}
              type={f.type}
              autoComplete={f.autoComplete}
              maxLength={f.name === "code" ? 40 : 254}
              required
              aria-invalid={error ? true : undefined}
            />
          </div>
        );
      })}
      <div>
        <Button type="submit" disabled={requesting}>
          Send the confirmation link
        </Button>
      </div>
      <ActionOutcome result={result} />
    </form>
  );
}
