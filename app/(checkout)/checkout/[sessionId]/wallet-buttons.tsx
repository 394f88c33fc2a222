import type { CheckoutMessages } from "@/lib/checkout/checkout-messages";
import type { CheckoutMethod } from "@/lib/checkout/get-checkout";
import { MethodIcon } from "./form-fields";
import type { CustomerDetails, LiveStripe, WalletKind } from "./live-stripe-context";

type Props = {
  wallets: CheckoutMethod[];
  sandbox: boolean;
  /** Stripe's Express Checkout Element, once the live part has loaded (live businesses). */
  LiveExpress: LiveStripe["ExpressButtons"] | undefined;
  messages: CheckoutMessages;
  disabled: boolean;
  /** Other methods follow: the "or" between them. */
  divider: boolean;
  onSimulated: (wallet: CheckoutMethod) => void;
  onLive: (kind: WalletKind, paymentMethodId: string, details: CustomerDetails) => Promise<boolean>;
};

/** Apple Pay and Google Pay: simulated buttons in a sandbox, Stripe's Express Checkout when live. */
export function WalletButtons({ wallets, sandbox, LiveExpress, messages, disabled, divider, onSimulated, onLive }: Props) {
  return (
    <div className="wallets">
      {sandbox ? (
        <>
          {wallets.map((w) => (
            <button key={w.id} type="button" className={`wallet ${w.method}`} disabled={disabled} onClick={() => onSimulated(w)}>
              <MethodIcon src={w.image} size={20} />
              {w.method === "apple_pay" ? messages.wallet.applePay : messages.wallet.googlePay}
            </button>
          ))}
          <p className="hint">{messages.wallet.simulated}</p>
        </>
      ) : LiveExpress ? (
        <LiveExpress
          applePay={wallets.some((w) => w.method === "apple_pay")}
          googlePay={wallets.some((w) => w.method === "google_pay")}
          onPaymentMethod={onLive}
        />
      ) : null}
      {divider ? <p className="divider">{messages.methods.or}</p> : null}
    </div>
  );
}
