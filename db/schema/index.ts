export * from "./businesses";
export * from "./payment-methods";
export * from "./sessions";
export * from "./payments";
export * from "./rate-limits";
export * from "./ledger";
