-- The webhook log and the overview's failing deliveries (decision 0058): both list a business's
-- events newest id first. Without an index in id order per business, the log walked the primary key
-- backwards past every other business's events (about 26,000 rows for a page of 25 at 1,000,000
-- events over 1,000 businesses), and the failing deliveries read and sorted all of a business's
-- failed events. The partial index holds only the failing ones.
CREATE INDEX "webhook_events_business_id_idx" ON "webhook_events" USING btree ("business_id","id");--> statement-breakpoint
CREATE INDEX "webhook_events_failing_idx" ON "webhook_events" USING btree ("business_id","id") WHERE ("webhook_events"."status" = 'failed' or ("webhook_events"."status" = 'pending' and "webhook_events"."last_error" is not null));