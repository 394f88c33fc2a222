CREATE TABLE "subscription_cycles" (
	"subscription_id" text NOT NULL,
	"cycle" integer NOT NULL,
	"provider_invoice_id" text NOT NULL,
	"session_id" text,
	"status" text NOT NULL,
	"failure_notified" boolean DEFAULT false NOT NULL,
	"period_end" timestamp(6) with time zone,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"status" text NOT NULL,
	"amount" integer NOT NULL,
	"unit_amount" integer NOT NULL,
	"unit_fees" integer NOT NULL,
	"currency" text NOT NULL,
	"interval" text NOT NULL,
	"interval_count" integer NOT NULL,
	"customer" text,
	"customer_email" text,
	"order_id" text NOT NULL,
	"items" jsonb NOT NULL,
	"metadata" jsonb NOT NULL,
	"payment_method" text NOT NULL,
	"provider" text NOT NULL,
	"provider_subscription_id" text,
	"provider_customer_id" text,
	"provider_payment_method_id" text,
	"payer_details" jsonb,
	"cycles_count" integer DEFAULT 1 NOT NULL,
	"period_anchor" timestamp(6) with time zone NOT NULL,
	"current_period_end" timestamp(6) with time zone,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"canceled_at" timestamp(6) with time zone,
	"canceled_by" text,
	"cancel_requested_by" text,
	"cancellation_reason" text,
	"initial_session_id" text NOT NULL,
	"initial_payment_id" text NOT NULL,
	"management_token_digest" text NOT NULL,
	"pending_op" text,
	"pending_op_token" text,
	"pending_op_at" timestamp(6) with time zone,
	"provider_synced_at" integer,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscriptions_initial_session_id_unique" UNIQUE("initial_session_id"),
	CONSTRAINT "subscriptions_management_token_digest_unique" UNIQUE("management_token_digest"),
	CONSTRAINT "subscriptions_cycles_positive" CHECK ("subscriptions"."cycles_count" >= 1)
);
--> statement-breakpoint
ALTER TABLE "subscription_cycles" ADD CONSTRAINT "subscription_cycles_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_cycles" ADD CONSTRAINT "subscription_cycles_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_initial_session_id_sessions_id_fk" FOREIGN KEY ("initial_session_id") REFERENCES "public"."sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_initial_payment_id_payments_id_fk" FOREIGN KEY ("initial_payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_cycles_invoice_idx" ON "subscription_cycles" USING btree ("subscription_id","provider_invoice_id");--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_cycles_cycle_idx" ON "subscription_cycles" USING btree ("subscription_id","cycle");--> statement-breakpoint
CREATE INDEX "subscriptions_business_idx" ON "subscriptions" USING btree ("business_id","id");--> statement-breakpoint
CREATE INDEX "subscriptions_business_customer_idx" ON "subscriptions" USING btree ("business_id","customer");--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_provider_idx" ON "subscriptions" USING btree ("provider","provider_subscription_id");