CREATE TABLE "payment_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"business_id" text NOT NULL,
	"payment_id" text NOT NULL,
	"status" text DEFAULT 'started' NOT NULL,
	"payment_method_id" text NOT NULL,
	"provider" text NOT NULL,
	"method" text NOT NULL,
	"via" text NOT NULL,
	"amount" integer NOT NULL,
	"fees" integer NOT NULL,
	"net_amount" integer NOT NULL,
	"screening_fee" integer DEFAULT 0 NOT NULL,
	"provider_payment_id" text,
	"provider_customer_id" text,
	"provider_payment_method_id" text,
	"next_url" text,
	"card_fingerprint" text,
	"email" text,
	"ip" text,
	"country" text,
	"user_agent" text,
	"customer_details" jsonb,
	"payment_details" jsonb,
	"fraud" jsonb,
	"risk_level" text,
	"failure_code" text,
	"failure_message" text,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp(6) with time zone,
	CONSTRAINT "payment_attempts_amounts_valid" CHECK ("payment_attempts"."amount" > 0 AND "payment_attempts"."fees" >= 0 AND "payment_attempts"."net_amount" = "payment_attempts"."amount" - "payment_attempts"."fees")
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"payment_id" text NOT NULL,
	"session_id" text NOT NULL,
	"provider" text NOT NULL,
	"provider_payment_id" text NOT NULL,
	"amount" integer NOT NULL,
	"ledger_amount" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text NOT NULL,
	"provider_refund_id" text,
	"ledger_transaction_id" text,
	"reversal_transaction_id" text,
	"failure_message" text,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp(6) with time zone,
	CONSTRAINT "refunds_amount_positive" CHECK ("refunds"."amount" > 0 AND "refunds"."ledger_amount" >= 0 AND "refunds"."ledger_amount" <= "refunds"."amount")
);
--> statement-breakpoint
CREATE TABLE "provider_events" (
	"id" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'received' NOT NULL,
	"note" text,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp(6) with time zone
);
--> statement-breakpoint
CREATE TABLE "provider_objects" (
	"provider" text NOT NULL,
	"object_id" text NOT NULL,
	"business_id" text NOT NULL,
	"kind" text NOT NULL,
	"session_id" text,
	"attempt_id" text,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provider_objects_provider_object_id_pk" PRIMARY KEY("provider","object_id")
);
--> statement-breakpoint
CREATE TABLE "sandbox_provider_payments" (
	"id" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"method" text NOT NULL,
	"currency" text NOT NULL,
	"amount" integer NOT NULL,
	"amount_paid" integer DEFAULT 0 NOT NULL,
	"amount_refunded" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"reference" text NOT NULL,
	"description" text,
	"return_url" text NOT NULL,
	"metadata" jsonb NOT NULL,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_provider_payments_amounts_valid" CHECK ("sandbox_provider_payments"."amount_paid" >= 0 AND "sandbox_provider_payments"."amount_paid" <= "sandbox_provider_payments"."amount" AND "sandbox_provider_payments"."amount_refunded" >= 0 AND "sandbox_provider_payments"."amount_refunded" <= "sandbox_provider_payments"."amount_paid")
);
--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "fraud_screening_fee_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "fraud_settings" jsonb;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "attempt_id" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "provider_customer_id" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "amount_received" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refunded_amount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "screening_fee" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "fraud_decision" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "fraud_reasons" jsonb;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "risk_level" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "failure_code" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "failure_message" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "credit_transaction_id" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "reviewed_at" timestamp(6) with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "completed_at" timestamp(6) with time zone;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD CONSTRAINT "payment_attempts_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD CONSTRAINT "payment_attempts_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD CONSTRAINT "payment_attempts_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_ledger_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("ledger_transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_reversal_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("reversal_transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_events" ADD CONSTRAINT "provider_events_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_objects" ADD CONSTRAINT "provider_objects_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_provider_payments" ADD CONSTRAINT "sandbox_provider_payments_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_attempts_session_idx" ON "payment_attempts" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "payment_attempts_business_created_idx" ON "payment_attempts" USING btree ("business_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_attempts_provider_payment_idx" ON "payment_attempts" USING btree ("provider","provider_payment_id") WHERE "payment_attempts"."provider_payment_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "refunds_payment_idx" ON "refunds" USING btree ("payment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_provider_refund_idx" ON "refunds" USING btree ("provider","provider_refund_id") WHERE "refunds"."provider_refund_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "provider_events_event_idx" ON "provider_events" USING btree ("provider","business_id","event_id");--> statement-breakpoint
CREATE INDEX "provider_events_business_idx" ON "provider_events" USING btree ("business_id","created_at");--> statement-breakpoint
ALTER TABLE "businesses" ADD CONSTRAINT "businesses_fraud_screening_fee_nonnegative" CHECK ("businesses"."fraud_screening_fee_cents" >= 0);--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_refunded_within_amount" CHECK ("payments"."refunded_amount" >= 0 AND "payments"."refunded_amount" <= "payments"."amount");