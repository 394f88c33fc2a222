"use client";

import { useKeptForm } from "@/components/use-kept-form";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";
import { ActionOutcome } from "../_components/action-outcome";
import { saveApprovalThresholdAction } from "./actions";

/** The four-eyes threshold in dollars; empty: none. */
export function ApprovalThresholdForm({ businessId, threshold }: { businessId: string; threshold: string }) {
  const { result, pending: saving, form } = useKeptForm(saveApprovalThresholdAction);
  const fieldError = result && !result.ok ? result.fields?.threshold?.join(", ") : undefined;
  return (
    <form {...form} className="grid gap-3 sm:grid-cols-[16rem_auto] sm:items-end">
      <input type="hidden" name="business" value={businessId} />
      <div className="grid gap-1.5">
        <Label htmlFor="approval-threshold">Threshold (USD)</Label>
        <Input
          id="approval-threshold"
          name="threshold"
          inputMode="decimal"
          placeholder="No threshold"
          defaultValue={threshold}
          autoComplete="off"
          aria-describedby="approval-threshold-help"
          aria-invalid={fieldError ? true : undefined}
        />
      </div>
      <Button type="submit" disabled={saving}>
        Save threshold
      </Button>
      <p id="approval-threshold-help" className="text-sm text-muted-foreground sm:col-span-2">
        {fieldError ?? "Leave empty to let every allocation and approval run at once."}
      </p>
      <div className="sm:col-span-2">
        <ActionOutcome result={result} />
      </div>
    </form>
  );
}
