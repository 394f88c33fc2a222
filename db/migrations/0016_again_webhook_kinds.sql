-- Decision 0042: later refunds and underpayments of an order come as `refunded_again` and
-- `incomplete_again`. A business that had `refunded` (or `incomplete`) enabled keeps hearing of
-- every one: the new kind is enabled beside it.
UPDATE "businesses" SET "webhook_events" = array_append("webhook_events", 'refunded_again')
  WHERE 'refunded' = ANY("webhook_events") AND NOT ('refunded_again' = ANY("webhook_events"));
--> statement-breakpoint
UPDATE "businesses" SET "webhook_events" = array_append("webhook_events", 'incomplete_again')
  WHERE 'incomplete' = ANY("webhook_events") AND NOT ('incomplete_again' = ANY("webhook_events"));
