"use client";

import { useActionState, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { ActionOutcome } from "../../_components/action-outcome";
import { cancelSubscriptionAction, resumeSubscriptionAction } from "./actions";

/** Cancel at period end, cancel now (confirmed in a dialog), resume; each answers with a message or the API's error. */
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
  const [cancelResult, cancel, canceling] = useActionState(cancelSubscriptionAction, null);
  const [resumeResult, resume, resuming] = useActionState(resumeSubscriptionAction, null);
  const [confirming, setConfirming] = useState(false);
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
            <form action={cancel}>
              {hidden}
              <input type="hidden" name="when" value="period_end" />
              <Button type="submit" variant="outline" disabled={canceling}>
                Cancel at period end
              </Button>
            </form>
          )}
          {scheduled && (
            <form action={resume}>
              {hidden}
              <Button type="submit" disabled={resuming} aria-describedby={resumeHint ? "resume-hint" : undefined}>
                Resume
              </Button>
            </form>
          )}
          <Dialog open={confirming} onOpenChange={setConfirming}>
            <DialogTrigger asChild>
              <Button variant="destructive">Cancel now…</Button>
            </DialogTrigger>
            <DialogContent>
              <DialogHeader>
                <DialogTitle>Cancel this subscription now?</DialogTitle>
                <DialogDescription>
                  It ends at once: no further renewal is charged, unpaid invoices are voided, the current period ({periodEnd}) is not refunded, and
                  your endpoint receives subscription_canceled. This cannot be undone.
                </DialogDescription>
              </DialogHeader>
              <form
                action={async (form) => {
                  await cancel(form);
                  setConfirming(false);
                }}
              >
                {hidden}
                <input type="hidden" name="when" value="now" />
                <DialogFooter>
                  <DialogClose asChild>
                    <Button type="button" variant="ghost">
                      Keep it
                    </Button>
                  </DialogClose>
                  <Button type="submit" variant="destructive" disabled={canceling}>
                    Cancel now
                  </Button>
                </DialogFooter>
              </form>
            </DialogContent>
          </Dialog>
        </div>
      )}
      {scheduled && resumeHint && !canceled && (
        <p id="resume-hint" className="text-sm text-muted-foreground">
          {resumeHint}
        </p>
      )}
      <ActionOutcome result={cancelResult} />
      <ActionOutcome result={resumeResult} />
    </div>
  );
}
