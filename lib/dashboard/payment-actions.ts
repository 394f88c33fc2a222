import { z } from "zod";
import { BadRequestError, ConflictError, DomainError } from "@/lib/errors";
import { formatMoney } from "@/lib/money";
import { refundInputSchema, reviewInputSchema } from "@/lib/payments/operation-input";
import { refundPayment, type RefundView } from "@/lib/payments/refund-payment";
import { reviewPayment } from "@/lib/payments/review-payment";
import { getPaymentDetail } from "./get-payment-detail";
import { withMoney } from "./parse-money";
import { staffAction } from "./staff-action";

const sessionField = z.string({ error: "payment is required" }).regex(/^cs_[0-9A-Za-z]{1,64}$/, { error: "No such payment" });

// The refund dialog: the typed amount read as cents with the staff member's locale (empty: all
// that is left), then the API's own body rules (refundInputSchema): the note is the API's
// `reason`, with its text rule and length.
const refundSchema = withMoney({ session: sessionField, note: z.string().optional() }, { amount: { what: "amount", optional: true as const } }).transform(
  (form, ctx) => {
    const api = refundInputSchema.safeParse({ amount: form.amount, reason: form.note });
    if (api.success) return { session: form.session, ...api.data };
    for (const issue of api.error.issues) ctx.addIssue({ code: "custom", path: issue.path[0] === "reason" ? ["note"] : issue.path, message: issue.message.replace(/^reason/, "The note") });
    return z.NEVER;
  },
);

/**
 * What the form says of a refund the provider answered: done, waiting, or a failure (an error
 * result, with the provider's reason: nothing was refunded and the balance is as it was).
 */
function refundOutcome(refund: RefundView): { message: string } {
  const amount = formatMoney(refund.amount, refund.currency);
  if (refund.status === "failed")
    throw new ConflictError(
      "refund_failed",
      `The refund of ${amount} failed: ${refund.failure_message ?? "the provider refused it"}. Nothing was refunded; the balance is as it was.`,
    );
  if (refund.status === "pending")
    return { message: `Refund of ${amount} is pending: the provider has not confirmed it yet. The payment's page shows it once it has.` };
  return { message: `Refund of ${amount} succeeded.` };
}

/** Refund (full by default, partial with an amount) from the payment page; errors speak in money. */
export const refundPaymentAs = staffAction({
  permission: "refund",
  schema: refundSchema,
  run: async ({ db, businessId, input }) => {
    try {
      return refundOutcome(await refundPayment(db, businessId, input.session, { amount: input.amount, note: input.reason }));
    } catch (error) {
      if (error instanceof DomainError && error.code === "amount_exceeds_refundable") {
        const { payment, internal } = await getPaymentDetail(db, businessId, input.session);
        const left = payment.amount - internal.refundedAmount;
        throw new BadRequestError(
          error.code,
          `The amount may be at most ${formatMoney(left, payment.currency)}: ${formatMoney(internal.refundedAmount, payment.currency)} of ${formatMoney(payment.amount, payment.currency)} is already refunded.`,
        );
      }
      if (error instanceof DomainError && error.code === "insufficient_balance")
        throw new BadRequestError(error.code, "The business balance is too low for this refund (it pays the refunded share of the net amount).");
      throw error;
    }
  },
});

/** Accept or decline a payment held for review (decline refunds the customer). */
export const reviewPaymentAs = staffAction({
  permission: "review",
  schema: z.object({ session: sessionField }).extend(reviewInputSchema.shape),
  run: async ({ db, businessId, input }) => {
    const payment = await reviewPayment(db, businessId, input.session, input.decision);
    return {
      message: input.decision === "accept" ? `Accepted: the payment is ${payment.status}.` : `Declined: the customer is refunded (${payment.status}).`,
    };
  },
});
