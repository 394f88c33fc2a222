"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";
import { formatMoney } from "@/lib/money";
import { ActionOutcome } from "../../_components/action-outcome";
import { FormDialog } from "../../_components/form-dialog";
import { refundAction, reviewAction } from "./actions";

/** Refund (full or partial) when something is left to refund; accept or decline when held for review. */
export function PaymentActions({
  sessionId,
  currency,
  refundable,
  inReview,
}: {
  sessionId: string;
  currency: string;
  /** Cents left to refund (0: nothing, or not a succeeded payment). */
  refundable: number;
  inReview: boolean;
}) {
  const [refundResult, refund, refunding] = useActionState(refundAction.bind(null, sessionId), null);
  const [reviewResult, review, reviewing] = useActionState(reviewAction.bind(null, sessionId), null);
  if (!refundable && !inReview && !refundResult && !reviewResult) return null;

  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap gap-2">
        {inReview && (
          <form action={review} className="flex flex-wrap gap-2">
            <Button type="submit" name="decision" value="accept" disabled={reviewing}>
              Accept payment
            </Button>
            <Button type="submit" name="decision" value="decline" variant="destructive" disabled={reviewing}>
              Decline and refund
            </Button>
          </form>
        )}
        {refundable > 0 && (
          <FormDialog
            trigger={<Button variant="outline">Refund</Button>}
            title="Refund this payment"
            description={<>Up to {formatMoney(refundable, currency)} can still be refunded. Leave the amount empty to refund all of it.</>}
            action={refund}
            pending={refunding}
            cancelLabel="Cancel"
            submitLabel="Refund"
          >
            <div className="grid gap-1.5">
              <Label htmlFor="refund-amount">Amount ({currency})</Label>
              <Input id="refund-amount" name="amount" inputMode="decimal" placeholder={(refundable / 100).toFixed(2)} autoComplete="off" />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="refund-note">Note for the provider (optional)</Label>
              <Input id="refund-note" name="note" maxLength={500} autoComplete="off" />
            </div>
          </FormDialog>
        )}
      </div>
      <ActionOutcome result={reviewResult} />
      <ActionOutcome result={refundResult} />
    </div>
  );
}
