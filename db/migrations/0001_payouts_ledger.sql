CREATE TABLE "payout_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"payout_user_id" text NOT NULL,
	"type" text NOT NULL,
	"amount" bigint NOT NULL,
	"balance_after" bigint NOT NULL,
	"withdrawal_id" text,
	"ledger_transaction_id" text NOT NULL,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_entries_amount_nonzero" CHECK ("payout_entries"."amount" <> 0),
	CONSTRAINT "payout_entries_balance_nonnegative" CHECK ("payout_entries"."balance_after" >= 0)
);
--> statement-breakpoint
CREATE TABLE "payout_users" (
	"id" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"email" text NOT NULL,
	"email_normalized" text NOT NULL,
	"hash_digest" text NOT NULL,
	"hash_enc" text NOT NULL,
	"hash_prefix" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"deactivated_at" timestamp(6) with time zone,
	CONSTRAINT "payout_users_status_valid" CHECK ("payout_users"."status" IN ('active', 'inactive'))
);
--> statement-breakpoint
CREATE TABLE "payout_withdrawals" (
	"id" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"payout_user_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"destination" text NOT NULL,
	"reference" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"status_reason" text,
	"settlement_reference" text,
	"resolved_by" text,
	"hold_transaction_id" text NOT NULL,
	"settle_transaction_id" text,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp(6) with time zone,
	CONSTRAINT "payout_withdrawals_amount_positive" CHECK ("payout_withdrawals"."amount" > 0),
	CONSTRAINT "payout_withdrawals_status_valid" CHECK ("payout_withdrawals"."status" IN ('pending', 'completed', 'rejected', 'canceled'))
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"business_id" text NOT NULL,
	"principal" text NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"status_code" integer,
	"response_enc" text,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_business_id_principal_key_pk" PRIMARY KEY("business_id","principal","key")
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"business_id" text,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"run_at" timestamp(6) with time zone NOT NULL,
	"business_clock" boolean DEFAULT false NOT NULL,
	"dedupe_key" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 25 NOT NULL,
	"locked_by" text,
	"lock_token" text,
	"locked_until" timestamp(6) with time zone,
	"last_error" text,
	"dispatched_at" timestamp(6) with time zone,
	"finished_at" timestamp(6) with time zone,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "jobs_dedupe_key_unique" UNIQUE("dedupe_key")
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"business_id" text NOT NULL,
	"number" integer NOT NULL,
	"round" integer NOT NULL,
	"url" text,
	"started_at" timestamp(6) with time zone NOT NULL,
	"finished_at" timestamp(6) with time zone,
	"duration_ms" integer,
	"status_code" integer,
	"response_body" text,
	"error" text,
	"outcome" text DEFAULT 'in_flight' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"type" text NOT NULL,
	"session_id" text,
	"payment_id" text,
	"subscription_id" text,
	"order_id" text,
	"body" text NOT NULL,
	"dedupe_key" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"round" integer DEFAULT 1 NOT NULL,
	"attempts_in_round" integer DEFAULT 0 NOT NULL,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp(6) with time zone,
	"last_attempt_at" timestamp(6) with time zone,
	"delivered_at" timestamp(6) with time zone,
	"last_error" text,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_token_rotations" (
	"business_id" text PRIMARY KEY NOT NULL,
	"previous_token_enc" text NOT NULL,
	"previous_expires_at" timestamp(6) with time zone NOT NULL,
	"rotated_at" timestamp(6) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payout_entries" ADD CONSTRAINT "payout_entries_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_entries" ADD CONSTRAINT "payout_entries_payout_user_id_payout_users_id_fk" FOREIGN KEY ("payout_user_id") REFERENCES "public"."payout_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_entries" ADD CONSTRAINT "payout_entries_withdrawal_id_payout_withdrawals_id_fk" FOREIGN KEY ("withdrawal_id") REFERENCES "public"."payout_withdrawals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_entries" ADD CONSTRAINT "payout_entries_ledger_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("ledger_transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_users" ADD CONSTRAINT "payout_users_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_withdrawals" ADD CONSTRAINT "payout_withdrawals_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_withdrawals" ADD CONSTRAINT "payout_withdrawals_payout_user_id_payout_users_id_fk" FOREIGN KEY ("payout_user_id") REFERENCES "public"."payout_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_withdrawals" ADD CONSTRAINT "payout_withdrawals_hold_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("hold_transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_withdrawals" ADD CONSTRAINT "payout_withdrawals_settle_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("settle_transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_webhook_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."webhook_events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_token_rotations" ADD CONSTRAINT "webhook_token_rotations_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payout_entries_user_idx" ON "payout_entries" USING btree ("payout_user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_users_business_email_idx" ON "payout_users" USING btree ("business_id","email_normalized");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_users_hash_digest_idx" ON "payout_users" USING btree ("hash_digest");--> statement-breakpoint
CREATE INDEX "payout_users_business_id_idx" ON "payout_users" USING btree ("business_id","id");--> statement-breakpoint
CREATE INDEX "payout_withdrawals_user_idx" ON "payout_withdrawals" USING btree ("payout_user_id","id");--> statement-breakpoint
CREATE INDEX "payout_withdrawals_business_status_idx" ON "payout_withdrawals" USING btree ("business_id","status","id");--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("run_at") WHERE "jobs"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "jobs_lease_idx" ON "jobs" USING btree ("locked_until") WHERE "jobs"."status" = 'running';--> statement-breakpoint
CREATE INDEX "jobs_business_idx" ON "jobs" USING btree ("business_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_number_idx" ON "webhook_deliveries" USING btree ("event_id","number");--> statement-breakpoint
CREATE INDEX "webhook_events_business_idx" ON "webhook_events" USING btree ("business_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_events_status_idx" ON "webhook_events" USING btree ("business_id","status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_events_dedupe_idx" ON "webhook_events" USING btree ("business_id","dedupe_key");--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_amount_nonzero" CHECK ("ledger_entries"."amount" <> 0);