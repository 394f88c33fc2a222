import { useEffect, useRef, type ReactNode } from "react";
import type { CheckoutMessages } from "@/lib/checkout/checkout-messages";
import type { CheckoutState } from "@/lib/checkout/checkout-state";
import { interpolate } from "@/lib/i18n/format";

type Props = {
  children?: ReactNode;
  state: CheckoutState | "already_paid";
  merchant: string;
  amount: string;
  returnUrl: string | null;
  /** A recurring plan's price per period ("$25.00 every month"); null for a one-time payment. */
  planPrice: string | null;
  messages: CheckoutMessages;
  focus: boolean;
};

/** What the page shows in place of the form once the session is no longer payable. */
export function ResultPanel({ state, merchant, amount, returnUrl, planPrice, messages, focus, children }: Props) {
  const s = messages.states;
  const values = { merchant, amount };
  const common = { state, focus };
  switch (state) {
    case "succeeded":
    case "already_paid": {
      const text = state === "succeeded" ? s.succeeded : s.alreadyPaid;
      return (
        <Result title={text.title} body={interpolate(text.body, values)} tone="good" {...common}>
          {planPrice && state === "succeeded" ? (
            <p data-testid="subscription-active">{interpolate(s.succeeded.subscription, { price: planPrice })}</p>
          ) : null}
          {returnUrl ? (
            <a className="button secondary" href={returnUrl} rel="noopener">
              {interpolate(s.succeeded.back, values)}
            </a>
          ) : null}
        </Result>
      );
    }
    case "processing":
      return (
        <Result title={s.processing.title} body={interpolate(s.processing.body, values)} tone="neutral" {...common} busy>
          {children}
        </Result>
      );
    case "pending_review":
      return <Result title={s.pendingReview.title} body={interpolate(s.pendingReview.body, values)} tone="neutral" {...common} />;
    case "declined":
      return <Result title={s.declined.title} body={interpolate(s.declined.body, values)} tone="bad" {...common} />;
    case "expired":
      return <Result title={s.expired.title} body={interpolate(s.expired.body, values)} tone="bad" {...common} />;
    default:
      return null;
  }
}

export function Result(props: {
  title: string;
  body: string;
  tone: "good" | "bad" | "neutral";
  state: string;
  focus?: boolean;
  busy?: boolean;
  children?: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  const { focus } = props;
  useEffect(() => {
    // Screen readers announce the focused heading; keyboard users continue from there.
    if (focus) heading.current?.focus();
  }, [focus]);
  return (
    <section className={`card result ${props.tone}`} role="status" aria-live="polite" data-state={props.state} data-testid="result">
      <h2 ref={heading} tabIndex={-1} className="status-title">
        {props.busy ? <span className="spinner" aria-hidden="true" /> : null}
        {props.title}
      </h2>
      <p>{props.body}</p>
      {props.children}
    </section>
  );
}
