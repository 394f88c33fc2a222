ALTER TABLE "businesses" ADD COLUMN "webhook_state" text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "webhook_state_reason" text;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "webhook_state_since" timestamp(6) with time zone;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "webhook_failing_since" timestamp(6) with time zone;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "webhook_failed_events" integer DEFAULT 0 NOT NULL;