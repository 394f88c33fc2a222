import { useId } from "react";
import type { UseFormReturn } from "react-hook-form";
import { formatExpiryInput, groupCardDigits, testCards } from "@/lib/checkout/card-input";
import type * as CardBrandsModule from "@/lib/checkout/card";
import type { CheckoutFormValues } from "@/lib/checkout/checkout-form";
import type { CheckoutMessages } from "@/lib/checkout/checkout-messages";
import { Field, invalid } from "./form-fields";

type CardBrands = typeof CardBrandsModule;

/** card-validator's brand rules, loaded once the customer reaches the card number. */
const cardBrands: { loaded?: CardBrands } = {};
function loadCardBrands() {
  return import("@/lib/checkout/card").then((module) => (cardBrands.loaded = module));
}

/** Stripe's test cards are all Visa, printed 4-4-4-4 (card-validator agrees: lib/checkout/card.test.ts). */
const printedTestCard = (number: string) => groupCardDigits(number);

type Props = { form: UseFormReturn<CheckoutFormValues>; messages: CheckoutMessages; disabled: boolean };

/**
 * A sandbox business's card fields, ours to validate (a live card is Stripe's Payment Element's),
 * with Stripe's test cards to fill them from.
 */
export function SandboxCardFields({ form, messages, disabled }: Props) {
  const { register, setValue, getValues, formState } = form;
  const errors = formState.errors;
  // Card brands decide the grouping (Amex 4-6-5): their rules load when the customer reaches the
  // field; until then (a fast typist) digits are grouped 4-4-4-4 and regrouped once they are in.
  const cardNumber = register("cardNumber", {
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
      const brands = cardBrands.loaded;
      setValue("cardNumber", brands ? brands.formatCardNumber(e.target.value) : groupCardDigits(e.target.value));
      if (!brands) void loadCardBrands().then(({ formatCardNumber }) => setValue("cardNumber", formatCardNumber(getValues("cardNumber"))));
    },
  });
  const expiry = register("expiry", {
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
      // Deleting keeps what is left as it is; typing forward adds the slash.
      const deleting = (e.nativeEvent as InputEvent).inputType?.startsWith("delete");
      if (!deleting) setValue("expiry", formatExpiryInput(e.target.value));
    },
  });
  const fillTestCard = (number: string) => {
    setValue("cardNumber", printedTestCard(number), { shouldValidate: formState.isSubmitted });
    if (!getValues("expiry")) setValue("expiry", `12/${String((new Date().getFullYear() + 3) % 100).padStart(2, "0")}`);
    if (!getValues("cvc")) setValue("cvc", "123");
  };
  const card = messages.card;
  return (
    <fieldset className="group">
      <legend>{card.legend}</legend>
      <Field id="cardNumber" label={card.number} error={errors.cardNumber?.message}>
        <input
          {...cardNumber}
          onFocus={() => void loadCardBrands()}
          id="cardNumber"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="1234 1234 1234 1234"
          maxLength={23}
          {...invalid("cardNumber", errors.cardNumber?.message)}
        />
      </Field>
      <div className="row">
        <Field id="expiry" label={card.expiry} error={errors.expiry?.message}>
          <input {...expiry} id="expiry" inputMode="numeric" autoComplete="cc-exp" placeholder="MM/YY" maxLength={7} {...invalid("expiry", errors.expiry?.message)} />
        </Field>
        <Field id="cvc" label={card.cvc} error={errors.cvc?.message}>
          <input {...register("cvc")} id="cvc" inputMode="numeric" autoComplete="cc-csc" placeholder="123" maxLength={4} {...invalid("cvc", errors.cvc?.message)} />
        </Field>
      </div>
      <TestCards messages={messages} onUse={fillTestCard} disabled={disabled} />
    </fieldset>
  );
}

function TestCards({ messages, onUse, disabled }: { messages: CheckoutMessages; onUse: (number: string) => void; disabled: boolean }) {
  const headingId = useId();
  return (
    <div className="test-cards">
      <h3 id={headingId}>{messages.card.testCards}</h3>
      <ul aria-labelledby={headingId}>
        {testCards.map((card) => {
          const printed = printedTestCard(card.number);
          return (
            <li key={card.number}>
              <code>{printed}</code>
              <span className="outcome">{messages.card.outcomes[card.outcome]}</span>
              <button type="button" className="link-button" disabled={disabled} onClick={() => onUse(card.number)} aria-label={`${messages.card.useCard} ${printed}`}>
                {messages.card.useCard}
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
