import type { UseFormRegister } from "react-hook-form";
import type { CheckoutFormValues } from "@/lib/checkout/checkout-form";
import type { CheckoutMessages } from "@/lib/checkout/checkout-messages";
import type { CheckoutMethod } from "@/lib/checkout/get-checkout";
import { MethodIcon } from "./form-fields";

type Props = {
  methods: CheckoutMethod[];
  currentId: string | undefined;
  register: UseFormRegister<CheckoutFormValues>;
  messages: CheckoutMessages;
  methodName: (method: CheckoutMethod) => string;
  disabled: boolean;
  onChange: (id: string) => void;
};

/** The choice between the form's methods (card, redirect methods), when there is more than one. */
export function MethodChoice({ methods, currentId, register, messages, methodName, disabled, onChange }: Props) {
  return (
    <fieldset className="methods">
      <legend className="visually-hidden">{messages.methods.legend}</legend>
      {methods.map((m) => (
        <label key={m.id} className={`method ${m.id === currentId ? "selected" : ""}`}>
          <input type="radio" {...register("method", { onChange: (e: React.ChangeEvent<HTMLInputElement>) => onChange(e.target.value) })} value={m.id} disabled={disabled} />
          <MethodIcon src={m.image} size={24} />
          <span>{methodName(m)}</span>
        </label>
      ))}
    </fieldset>
  );
}
