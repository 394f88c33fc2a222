// Migrations written before the rolling-upgrade lint (decision 0072) that it would refuse: listed
// here with the rules each breaks and why it is let stand, never skipped silently. The lint fails
// when an entry no longer matches what its migration does, or names a migration that is gone.
/** The lint's rules (db/migration-lint.ts), named here so this list and the lint import one way. */
export type Rule =
  | "drop"
  | "rename"
  | "type-change"
  | "not-null-without-default"
  | "set-not-null"
  | "index-without-concurrently";

const smallTables =
  "written before the lint: indexes built inside the migrations' transaction (decision 0072), on tables a " +
  "deployment of the time held few rows in; writes to the table waited for the build, reads did not";

export const grandfathered: Record<string, { rules: Rule[]; reason: string }> = {
  "0012_instances_reconciliation": {
    rules: ["index-without-concurrently"],
    reason: `${smallTables} (payment_attempts, sandbox_provider_payments)`,
  },
  "0024_listen_attempts": {
    rules: ["index-without-concurrently"],
    reason:
      `${smallTables} (webhook_deliveries). It also drops and recreates the unique index on ` +
      "(event_id, number) with source added: the previous release's inserts never conflict on it differently",
  },
  "0025_ledger_checkpoint_and_scale_indexes": {
    rules: ["index-without-concurrently"],
    reason: `${smallTables} (sessions, payments, ledger_entries, ledger_transactions, idempotency_keys)`,
  },
  "0026_search_trigram_indexes": {
    rules: ["index-without-concurrently"],
    reason: `${smallTables} (sessions, payments: trigram indexes)`,
  },
  "0028_payments_business_session_index": {
    rules: ["index-without-concurrently"],
    reason: `${smallTables} (payments); the index it drops is not unique, so no release's writes depend on it`,
  },
  "0030_webhook_event_log_indexes": {
    rules: ["index-without-concurrently"],
    reason: `${smallTables} (webhook_events)`,
  },
  "0031_sandbox_clock_advance": {
    rules: ["index-without-concurrently"],
    reason: `${smallTables} (businesses: one row per business)`,
  },
};
