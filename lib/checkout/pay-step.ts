import type { CheckoutStatus } from "./get-checkout";
import type { CheckoutMessages } from "./checkout-messages";
import { failureMessage } from "./failure-message";
import type { PayOutcome } from "./pay-client";
import { interpolate } from "@/lib/i18n/format";

/**
 * What the hosted page does with one answer of the pay endpoint: a pure decision (table-tested in
 * pay-step.test.ts), applied by the payment form (app/(checkout)/…/use-pay.ts).
 * - `navigate`: leave for a redirect method's page or a 3-D Secure challenge, saying so meanwhile;
 * - `status`: the attempt settled (paid, held, processing): the page shows that state;
 * - `alert`: the form stays, with this message; `reread` says when the session's state is read
 *   again: `before` the message (paid or expired meanwhile: the result replaces the form), or
 *   `after` it, its failure ignored (the outcome is unknown: never "failed", never "pay again").
 */
export type PayStep =
  | { kind: "navigate"; url: string; busy: string }
  | { kind: "status"; status: CheckoutStatus }
  | { kind: "alert"; text: string; reread?: "before" | "after" };

export function payStep(outcome: PayOutcome, messages: CheckoutMessages, methodName: string): PayStep {
  const errors = messages.errors;
  switch (outcome.kind) {
    case "result": {
      const { next, ...status } = outcome.response;
      if (next?.type === "redirect")
        return { kind: "navigate", url: next.url, busy: interpolate(messages.pay.redirecting, { method: methodName }) };
      if (next?.type === "authenticate") return { kind: "navigate", url: next.challengeUrl, busy: messages.pay.authenticating };
      if (status.state === "failed") return { kind: "alert", text: failureMessage(status.failure_code, errors) };
      return { kind: "status", status };
    }
    case "not_payable":
      return { kind: "alert", text: errors.generic, reread: "before" };
    case "ip_mismatch":
      return { kind: "alert", text: errors.ipMismatch };
    case "method_unavailable":
      return { kind: "alert", text: errors.methodUnavailable };
    case "invalid":
      return { kind: "alert", text: interpolate(errors.rejected, { fields: outcome.fields.join(", ") }) };
    case "network":
      return { kind: "alert", text: errors.network };
    case "unavailable":
      return { kind: "alert", text: errors.unavailable };
    case "outcome_unknown":
      return { kind: "alert", text: errors.outcomeUnknown, reread: "after" };
    default:
      return { kind: "alert", text: errors.generic };
  }
}
