"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { ActionOutcome } from "../../_components/action-outcome";
import { FormDialog } from "../../_components/form-dialog";
import { cancelSubscriptionAction, resumeSubscriptionAction, type SubscriptionActionResult } from "./actions";

/**
 * Cancel at period end, cancel now (confirmed in a dialog), resume (offered only where this staff
 * member may: otherwise the reason is shown instead); the last answer is shown, a message or the API's error.
 */
export function SubscriptionActions({
  businessId,
  subscriptionId,
  canceled,
  scheduled,
  resumeHint,
  periodEnd,
}: {
  businessId: string;
  subscriptionId: string;
  canceled: boolean;
  scheduled: boolean;
  /** Why the dashboard may not withdraw this scheduled cancellation (shown next to the button). */
  resumeHint: string | null;
  periodEnd: string;
}) {
  // One answer on screen: the last action's (a resume replaces the cancellation's message).
  const [result, act, pending] = useActionState<SubscriptionActionResult, FormData>(
    (previous, form) => (form.get("op") === "resume" ? resumeSubscriptionAction(previous, form) : cancelSubscriptionAction(previous, form)),
    null,
  );
  const hidden = (
    <>
      <input type="hidden" name="business" value={businessId} />
      <input type="hidden" name="subscription" value={subscriptionId} />
    </>
  );

  return (
    <div className="grid gap-3">
      {canceled ? (
        <p className="text-sm text-muted-foreground">This subscription has ended; nothing more can be changed.</p>
      ) : (
        <div className="flex flex-wrap gap-2">
          {!scheduled && (
            <form action={act}>
              {hidden}
              <input type="hidden" name="when" value="period_end" />
              <Button type="submit" variant="outline" disabled={pending}>
                Cancel at period end
              </Button>
            </form>
          )}
          {scheduled && !resumeHint && (
            <form action={act}>
              {hidden}
              <input type="hidden" name="op" value="resume" />
              <Button type="submit" disabled={pending}>
                Resume
              </Button>
            </form>
          )}
          <FormDialog
            trigger={<Button variant="destructive">Cancel now…</Button>}
            title="Cancel this subscription now?"
            description={
              <>
                It ends at once: no further renewal is charged, unpaid invoices are voided, the current period ({periodEnd}) is not refunded, and
                your endpoint receives subscription_canceled. This cannot be undone.
              </>
            }
            action={act}
            pending={pending}
            cancelLabel="Keep it"
            submitLabel="Cancel now"
            submitVariant="destructive"
          >
            {hidden}
            <input type="hidden" name="when" value="now" />
          </FormDialog>
        </div>
      )}
      {scheduled && resumeHint && !canceled && (
        <p id="resume-hint" className="text-sm text-muted-foreground">
          {resumeHint}
        </p>
      )}
      <ActionOutcome result={result} />
    </div>
  );
}
