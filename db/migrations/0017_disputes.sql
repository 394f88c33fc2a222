CREATE TABLE "disputes" (
	"id" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"session_id" text NOT NULL,
	"provider" text NOT NULL,
	"provider_dispute_id" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"reason" text NOT NULL,
	"status" text NOT NULL,
	"evidence_due_by" timestamp(6) with time zone,
	"evidence" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"submission_count" integer DEFAULT 0 NOT NULL,
	"booked" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"opened_notified_at" timestamp(6) with time zone,
	"closed_notified_at" timestamp(6) with time zone,
	"closed_at" timestamp(6) with time zone,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_balance_nonnegative";--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "disputes_provider_idx" ON "disputes" USING btree ("business_id","provider","provider_dispute_id");--> statement-breakpoint
CREATE INDEX "disputes_business_idx" ON "disputes" USING btree ("business_id","id");--> statement-breakpoint
CREATE INDEX "disputes_session_idx" ON "disputes" USING btree ("session_id");--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_balance_nonnegative" CHECK ("ledger_accounts"."kind" = 'external' OR ("ledger_accounts"."kind" = 'amount_owed' AND "ledger_accounts"."balance" <= 0) OR ("ledger_accounts"."kind" <> 'amount_owed' AND "ledger_accounts"."balance" >= 0));