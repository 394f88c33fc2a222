DROP INDEX "webhook_deliveries_number_idx";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "source" text DEFAULT 'delivery' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_number_idx" ON "webhook_deliveries" USING btree ("event_id","source","number");