import type { UseFormReturn } from "react-hook-form";
import type { CheckoutFormValues } from "@/lib/checkout/checkout-form";
import type { CheckoutMessages } from "@/lib/checkout/checkout-messages";
import type { CheckoutMethod } from "@/lib/checkout/get-checkout";
import type { PayRequest } from "@/lib/checkout/pay-request";
import type { CustomerDetails, LiveStripe, WalletKind } from "./live-stripe-context";
import type { Busy } from "./use-pay";
import { isCard, loadFormRules } from "./use-checkout-form";

type Context = {
  form: UseFormReturn<CheckoutFormValues>;
  messages: CheckoutMessages;
  sandbox: boolean;
  live: LiveStripe | null;
  current: CheckoutMethod | undefined;
  wallets: CheckoutMethod[];
  pay: (request: PayRequest, method: CheckoutMethod) => Promise<boolean>;
  setAlert: (text: string | null) => void;
  showAlert: (text: string) => void;
  setBusy: (busy: Busy) => void;
};

/** What the form's submit and the wallet buttons do: each builds a pay request and sends it. */
export function paymentHandlers({ form, messages, sandbox, live, current, wallets, pay, setAlert, showAlert, setBusy }: Context) {
  const { getValues, trigger } = form;

  const onValid = async (values: CheckoutFormValues) => {
    if (!current) return;
    const { customerDetailsOf, payRequestOf } = await loadFormRules();
    if (isCard(current) && !sandbox) {
      if (!live?.ready) return showAlert(messages.card.loadFailed);
      setBusy({ text: messages.pay.working });
      const created = await live.createPaymentMethod(customerDetailsOf(values));
      if ("error" in created) {
        setBusy(null);
        return showAlert(created.error || messages.errors.declined);
      }
      await pay(payRequestOf(current.id, values, { stripePaymentMethodId: created.id }), current);
      return;
    }
    await pay(payRequestOf(current.id, values, { withCard: sandbox && isCard(current) }), current);
  };
  const onInvalid = () => setAlert(messages.errors.fixFields);

  async function payWithSimulatedWallet(wallet: CheckoutMethod) {
    const ok = await trigger(["name", "email", "phone", "line1", "city", "postalCode", "country"], { shouldFocus: true });
    if (!ok) return setAlert(messages.errors.fixFields);
    const { payRequestOf, simulatedWalletCard } = await loadFormRules();
    await pay(payRequestOf(wallet.id, getValues(), { card: simulatedWalletCard() }), wallet);
  }

  async function payWithLiveWallet(kind: WalletKind, paymentMethodId: string, details: CustomerDetails) {
    const wallet = wallets.find((w) => w.method === kind);
    if (!wallet) return false;
    const { customerDetailsOf } = await loadFormRules();
    const typed = customerDetailsOf(getValues());
    const merged = { ...typed, ...Object.fromEntries(Object.entries(details).filter(([, v]) => v)) };
    return pay({ paymentMethodId: wallet.id, stripePaymentMethodId: paymentMethodId, customerDetails: merged }, wallet);
  }

  return { onValid, onInvalid, payWithSimulatedWallet, payWithLiveWallet };
}
