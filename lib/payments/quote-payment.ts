import type { Business, PaymentMethod, Session } from "@/db/schema";
import { chargeFor } from "@/lib/fees/compute-fees";
import { fraudSettingsOf } from "@/lib/fraud/fraud-settings";
import { methodFees } from "./list-methods";

export type PaymentQuote = {
  /** Cents the customer pays: the session amount (grossed up when fees are passed on) plus the screening fee. */
  amount: number;
  /** Kassa's fees, the screening fee included. */
  fees: number;
  /** What the business receives: amount - fees. */
  net: number;
  screeningFee: number;
};

/**
 * What a first payment of the session by this method costs the customer, as paySession charges
 * it (the hosted page shows the same total). A company's session (`is_company`) is charged the
 * company fees GET /payments/methods lists with `is_company=true` (decision 0040). The one-time
 * fraud screening fee applies while screening is on; renewals never carry it.
 */
export function quotePayment(
  business: Pick<Business, "passFeesToCustomer" | "fraudScreeningFeeCents" | "fraudSettings">,
  method: PaymentMethod,
  session: Pick<Session, "amount" | "isCompany">,
): PaymentQuote {
  const screeningFee = fraudSettingsOf(business).enabled ? business.fraudScreeningFeeCents : 0;
  const charge = chargeFor(session.amount, methodFees(method, session.isCompany), business.passFeesToCustomer);
  return {
    amount: charge.gross + screeningFee,
    fees: charge.fees + screeningFee,
    net: charge.net,
    screeningFee,
  };
}
