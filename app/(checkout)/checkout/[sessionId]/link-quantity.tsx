import { interpolate, type Messages } from "@/lib/i18n";
import type { LinkQuantityChoice } from "@/lib/payment-links/link-quantity-choice";

/**
 * The quantity a payment link lets the payer choose (decision 0049): a plain form, no script, that
 * visits the link again with `?quantity=N`; the link makes a session for that quantity.
 */
export function LinkQuantity({ choice, messages }: { choice: LinkQuantityChoice; messages: Messages }) {
  const text = messages.linkQuantity;
  return (
    <form method="get" action={`/l/${choice.slug}`} className="card link-quantity" data-testid="link-quantity">
      <label htmlFor="link-quantity">{text.label}</label>
      <input
        id="link-quantity"
        name="quantity"
        type="number"
        inputMode="numeric"
        min={choice.minimum}
        max={choice.maximum}
        step={1}
        required
        defaultValue={choice.quantity}
        aria-describedby="link-quantity-hint"
      />
      <button type="submit" className="button secondary">
        {text.update}
      </button>
      <p id="link-quantity-hint" className="hint">
        {interpolate(text.hint, { minimum: choice.minimum, maximum: choice.maximum })}
      </p>
    </form>
  );
}
