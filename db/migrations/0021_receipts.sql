CREATE TABLE "receipts" (
	"id" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"session_id" text NOT NULL,
	"payment_id" text NOT NULL,
	"kind" text NOT NULL,
	"source_key" text NOT NULL,
	"token" text NOT NULL,
	"locale" text NOT NULL,
	"to_address" text NOT NULL,
	"currency" text NOT NULL,
	"content" jsonb NOT NULL,
	"mail_message_id" text,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "receipts_source_key_unique" UNIQUE("source_key"),
	CONSTRAINT "receipts_token_unique" UNIQUE("token")
);
--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "send_receipts" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "locale" text;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "receipts_payment_idx" ON "receipts" USING btree ("payment_id");