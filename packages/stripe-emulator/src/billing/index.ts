/**
 * Stripe Billing as the emulator plays it: subscriptions, their invoices, renewal at each period
 * end, collection with the default payment method, retries on the account's schedule, and the
 * end of a subscription (scheduled, immediate, or after the last failed retry).
 */

export { addIntervals, nextBillingDate, periodOf, recurringOf } from "./periods";
export { finalizeInvoice, settleInvoiceOfIntent } from "./invoice-outcomes";
export { markUncollectible, payInvoiceOutOfBand, voidInvoice } from "./invoice-closing";
export { collectInvoice, invoiceIntent } from "./collect-invoice";
export { createSubscription, type SubscriptionInput } from "./create-subscription";
export { endSubscription } from "./subscription-status";
export { cancelSubscriptionNow, scheduleCancellation } from "./cancel-subscription";
export { advanceDraft, nextDueWork } from "./due-work";
