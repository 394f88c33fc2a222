ALTER TABLE "webhook_deliveries" ADD COLUMN "request_headers" jsonb;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "note" text;