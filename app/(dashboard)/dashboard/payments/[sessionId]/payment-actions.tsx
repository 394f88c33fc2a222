"use client";

import { ActionFeedback, DialogActionForm, FormField } from "@/components/action-form";
import { typedMoney } from "@/lib/dashboard/parse-money";
import { formatMoney } from "@/lib/money";
import { refundAction, reviewAction } from "./actions";

/**
 * Refund (full or partial) when something is left to refund; accept or decline when held for
 * review. Each asks first, saying what will happen; the refund dialog stays open on an error.
 */
export function PaymentActions({
  businessId,
  sessionId,
  amount,
  currency,
  refundable,
  notRefundableReason,
  inReview,
  locale,
}: {
  businessId: string;
  sessionId: string;
  /** The payment's amount in cents. */
  amount: number;
  currency: string;
  /** Cents left to refund (0: nothing, or not a succeeded payment). */
  refundable: number;
  /** Why there is no Refund button although money is left (a chargeback); null otherwise. */
  notRefundableReason: string | null;
  inReview: boolean;
  /** The staff member's locale, for typed money. */
  locale: string;
}) {
  // Rendered even when nothing is left to do: the last action's answer stays (a full refund or a
  // decline leaves no button behind).
  const money = (cents: number) => formatMoney(cents, currency);
  const review = reviewAction.bind(null, sessionId);
  return (
    <ActionFeedback>
      <div className="flex flex-wrap gap-2">
        {inReview && (
          <>
            <DialogActionForm
              action={review}
              hidden={{ business: businessId, decision: "accept" }}
              triggerLabel="Accept payment"
              triggerVariant="default"
              title="Accept this payment?"
              description={<>The held payment of {money(amount)} goes through: the customer is charged and the order is paid. This cannot be undone.</>}
              submitLabel="Accept payment"
            />
            <DialogActionForm
              action={review}
              hidden={{ business: businessId, decision: "decline" }}
              triggerLabel="Decline and refund"
              triggerVariant="destructive"
              title="Decline and refund this payment?"
              description={<>The payment is declined and the customer gets all {money(amount)} back. This cannot be undone.</>}
              submitLabel="Decline and refund"
              submitVariant="destructive"
            />
          </>
        )}
        {refundable > 0 && (
          <DialogActionForm
            action={refundAction.bind(null, sessionId)}
            hidden={{ business: businessId }}
            triggerLabel="Refund"
            title="Refund this payment"
            description={<>Up to {money(refundable)} can still be refunded. Leave the amount empty to refund all of it. A refund cannot be undone.</>}
            submitLabel="Refund"
          >
            <FormField name="amount" label={`Amount (${currency})`} moneyLocale={locale} placeholder={typedMoney(refundable, locale)} />
            <FormField name="note" label="Note for the provider (optional)" maxLength={500} autoComplete="off" />
          </DialogActionForm>
        )}
      </div>
      {notRefundableReason && (
        <p className="text-sm text-muted-foreground" data-testid="not-refundable">
          {notRefundableReason}
        </p>
      )}
    </ActionFeedback>
  );
}
