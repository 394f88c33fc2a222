CREATE TABLE "ledger_verified_sums" (
	"account_id" text PRIMARY KEY NOT NULL,
	"entries_sum" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_verify_checkpoint" (
	"id" text PRIMARY KEY DEFAULT 'ledger' NOT NULL,
	"snapshot" "pg_snapshot" NOT NULL,
	"full_pass_at" timestamp(6) with time zone NOT NULL,
	"verified_at" timestamp(6) with time zone NOT NULL
);
--> statement-breakpoint
-- Added without a default, then given one: existing rows keep NULL (older than any watermark) and the
-- table is not rewritten; each row inserted from now on carries its transaction's id (decision 0054a).
ALTER TABLE "ledger_entries" ADD COLUMN "xid" "xid8";--> statement-breakpoint
ALTER TABLE "ledger_entries" ALTER COLUMN "xid" SET DEFAULT pg_current_xact_id();--> statement-breakpoint
-- Added without a default, then given one: existing rows keep NULL (older than any watermark) and the
-- table is not rewritten; each row inserted from now on carries its transaction's id (decision 0054a).
ALTER TABLE "ledger_transactions" ADD COLUMN "xid" "xid8";--> statement-breakpoint
ALTER TABLE "ledger_transactions" ALTER COLUMN "xid" SET DEFAULT pg_current_xact_id();--> statement-breakpoint
ALTER TABLE "ledger_verified_sums" ADD CONSTRAINT "ledger_verified_sums_account_id_ledger_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sessions_business_id_idx" ON "sessions" USING btree ("business_id","id");--> statement-breakpoint
CREATE INDEX "payments_business_status_completed_idx" ON "payments" USING btree ("business_id","status",coalesce("completed_at", "created_at"));--> statement-breakpoint
CREATE INDEX "payments_business_updated_idx" ON "payments" USING btree ("business_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "ledger_entries_xid_idx" ON "ledger_entries" USING btree ("xid");--> statement-breakpoint
CREATE INDEX "ledger_transactions_xid_idx" ON "ledger_transactions" USING btree ("xid");--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "ledger_transactions_reference_idx" ON "ledger_transactions" USING btree ("reference");