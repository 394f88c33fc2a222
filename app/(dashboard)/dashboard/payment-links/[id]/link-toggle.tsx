"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { ActionOutcome } from "../../_components/action-outcome";
import { activatePaymentLinkAction, deactivatePaymentLinkAction } from "../actions";

/** Deactivate (or reactivate) the link. */
export function LinkToggle({ businessId, linkId, active }: { businessId: string; linkId: string; active: boolean }) {
  const [result, run, pending] = useActionState(active ? deactivatePaymentLinkAction : activatePaymentLinkAction, null);
  return (
    <form action={run} className="grid gap-2">
      <input type="hidden" name="business" value={businessId} />
      <input type="hidden" name="link" value={linkId} />
      <div>
        <Button type="submit" variant={active ? "destructive" : "default"} disabled={pending}>
          {active ? "Deactivate link" : "Reactivate link"}
        </Button>
      </div>
      <ActionOutcome result={result} />
    </form>
  );
}
