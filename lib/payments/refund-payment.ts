// Refunds (decision 0008): the entry points, in lib/payments/refund/ by phase.
// prepare and reserve: refund/merchant-refund.ts, refund/reserve-refund.ts;
// complete after commit: refund/execute-refund.ts, refund/apply-refund-outcome.ts;
// refunds made at the provider: refund/provider-refund.ts; the Refund object: refund/refund-view.ts.
export { reserveRefund, ledgerShare, type ReserveRefundInput } from "./refund/reserve-refund";
export {
  executeRefund,
  executePendingRefunds,
  executeRefundsNow,
  refundPaymentJob,
  syncRefund,
} from "./refund/execute-refund";
export {
  completeRefund,
  prepareMerchantRefund,
  refundPayment,
  reserveMerchantRefund,
  type PreparedRefund,
  type RefundPaymentInput,
} from "./refund/merchant-refund";
export { findRefundByProviderId, recordProviderRefund } from "./refund/provider-refund";
export { listRefunds, readRefund, refundView, type RefundView } from "./refund/refund-view";
