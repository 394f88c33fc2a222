"use client";

import { useRef, useState } from "react";
import type { CheckoutMessages } from "@/lib/checkout/checkout-messages";
import { failureMessage } from "@/lib/checkout/failure-message";
import type { CheckoutMethod, CheckoutStatus } from "@/lib/checkout/get-checkout";
import { submitPayment } from "@/lib/checkout/pay-client";
import type { PayRequest } from "@/lib/checkout/pay-request";
import { payStep } from "@/lib/checkout/pay-step";

export type Busy = null | { text: string };

type Options = {
  sessionId: string;
  messages: CheckoutMessages;
  /** The last attempt failed (the page opened on it, e.g. back from 3-D Secure). */
  lastFailure: { code: string | null } | null;
  methodName: (method: CheckoutMethod) => string;
  onStatus: (status: CheckoutStatus) => void;
  onNotPayable: () => Promise<void>;
};

/**
 * One payment attempt and what the form shows around it: the busy line while it runs, the alert
 * (focused, so it is heard) when it did not go through. lib/checkout/pay-step.ts decides; this
 * applies the decision.
 */
export function usePay({ sessionId, messages, lastFailure, methodName, onStatus, onNotPayable }: Options) {
  const [alert, setAlert] = useState<string | null>(lastFailure ? failureMessage(lastFailure.code, messages.errors) : null);
  const [busy, setBusy] = useState<Busy>(null);
  const alertRef = useRef<HTMLDivElement>(null);

  function showAlert(text: string) {
    setAlert(text);
    // Moving focus to the message makes sure it is heard, and puts keyboard users next to the form.
    queueMicrotask(() => alertRef.current?.focus());
  }

  async function pay(request: PayRequest, method: CheckoutMethod): Promise<boolean> {
    setAlert(null);
    setBusy({ text: messages.pay.working });
    const step = payStep(await submitPayment(sessionId, request), messages, methodName(method));
    if (step.kind === "navigate") {
      setBusy({ text: step.busy });
      window.location.assign(step.url);
      return true;
    }
    setBusy(null);
    if (step.kind === "status") {
      onStatus(step.status);
      return true;
    }
    // Paid, expired or held meanwhile: re-reading the state replaces the form with the result.
    if (step.reread === "before") await onNotPayable();
    showAlert(step.text);
    // The outcome is unknown: re-reading shows "processing" (polled until settled) once it can.
    if (step.reread === "after") await onNotPayable().catch(() => undefined);
    return false;
  }

  return { alert, setAlert, showAlert, busy, setBusy, alertRef, pay };
}
