import type { FieldErrors, UseFormRegister } from "react-hook-form";
import type { CheckoutFormValues } from "@/lib/checkout/checkout-form";
import type { CheckoutMessages } from "@/lib/checkout/checkout-messages";
import { CountryOptions, type CountryOption } from "./country-options";
import { Field, invalid } from "./form-fields";

type Props = {
  register: UseFormRegister<CheckoutFormValues>;
  errors: FieldErrors<CheckoutFormValues>;
  messages: CheckoutMessages;
  countries: CountryOption[];
};

/** The payer's billing details: every method asks for them (the card's own fields are apart). */
export function BillingFields({ register, errors, messages, countries }: Props) {
  const text = messages.billing;
  const optional = text.optional;
  return (
    <fieldset className="group">
      <legend>{text.legend}</legend>
      <Field id="name" label={text.name} error={errors.name?.message}>
        <input {...register("name")} id="name" autoComplete="name" {...invalid("name", errors.name?.message)} />
      </Field>
      <Field id="email" label={text.email} error={errors.email?.message}>
        <input {...register("email")} id="email" type="email" autoComplete="email" {...invalid("email", errors.email?.message)} />
      </Field>
      <Field id="phone" label={text.phone} optional={optional} error={errors.phone?.message}>
        <input {...register("phone")} id="phone" type="tel" autoComplete="tel" {...invalid("phone", errors.phone?.message)} />
      </Field>
      <Field id="line1" label={text.line1} optional={optional} error={errors.line1?.message}>
        <input {...register("line1")} id="line1" autoComplete="address-line1" {...invalid("line1", errors.line1?.message)} />
      </Field>
      <div className="row">
        <Field id="city" label={text.city} optional={optional} error={errors.city?.message}>
          <input {...register("city")} id="city" autoComplete="address-level2" {...invalid("city", errors.city?.message)} />
        </Field>
        <Field id="postalCode" label={text.postalCode} optional={optional} error={errors.postalCode?.message}>
          <input {...register("postalCode")} id="postalCode" autoComplete="postal-code" {...invalid("postalCode", errors.postalCode?.message)} />
        </Field>
      </div>
      <Field id="country" label={text.country} error={errors.country?.message}>
        <select {...register("country")} id="country" autoComplete="country" {...invalid("country", errors.country?.message)}>
          <CountryOptions countries={countries} placeholder={text.chooseCountry} />
        </select>
      </Field>
    </fieldset>
  );
}
