-- The sandbox clock's advance in progress (issue 46): background workers leave a business's jobs to
-- its advance while this is in the future. Nullable, no default: the running release ignores it.
ALTER TABLE "businesses" ADD COLUMN "clock_advance_until" timestamp(6) with time zone;--> statement-breakpoint
CREATE INDEX "businesses_clock_advance_idx" ON "businesses" USING btree ("clock_advance_until") WHERE "businesses"."clock_advance_until" is not null;