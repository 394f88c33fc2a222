ALTER TABLE "business_providers" ADD COLUMN "setup_checked_at" timestamp(6) with time zone;--> statement-breakpoint
ALTER TABLE "business_providers" ADD COLUMN "setup_check" text;