// Payments as the emulator plays them: a card's decision, charges, PaymentIntents and their ends.
export { predictCharge } from "./card-decision";
export { createBalanceTransaction, processingFee } from "./balance-transactions";
export { customerId, requireIntentStatus } from "./intent-fields";
export { createIntent, type IntentInput } from "./create-intent";
export { type ConfirmResult, confirmIntent } from "./confirm-intent";
export { cancelIntent, captureIntent, completeAuthentication } from "./intent-endings";
