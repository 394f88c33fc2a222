-- Recovery of failed renewals (decision 0084): the per-business opt-ins (defaults: off, 7 days) and
-- the once-per-cycle-and-kind record of the e-mails sent. New table and defaulted columns: the running
-- release ignores both.
CREATE TABLE "recovery_mails" (
	"subscription_id" text NOT NULL,
	"cycle" integer NOT NULL,
	"kind" text NOT NULL,
	"business_id" text NOT NULL,
	"mail_message_id" text,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "recovery_mails_subscription_id_cycle_kind_pk" PRIMARY KEY("subscription_id","cycle","kind"),
	CONSTRAINT "recovery_mails_kind_valid" CHECK ("recovery_mails"."kind" IN ('renewal_failed', 'renewal_ahead', 'card_expiring'))
);
--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "recovery_failed_mail" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "recovery_ahead_mail" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "recovery_ahead_days" integer DEFAULT 7 NOT NULL;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "recovery_expiry_mail" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "recovery_mails" ADD CONSTRAINT "recovery_mails_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recovery_mails" ADD CONSTRAINT "recovery_mails_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recovery_mails" ADD CONSTRAINT "recovery_mails_mail_message_id_mail_messages_id_fk" FOREIGN KEY ("mail_message_id") REFERENCES "public"."mail_messages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recovery_mails_business_created_idx" ON "recovery_mails" USING btree ("business_id","created_at");--> statement-breakpoint
ALTER TABLE "businesses" ADD CONSTRAINT "businesses_recovery_ahead_days_range" CHECK ("businesses"."recovery_ahead_days" between 1 and 30);