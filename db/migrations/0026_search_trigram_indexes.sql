-- Trigram indexes for the payments list's and the export's substring search (decision 0055a).
-- pg_trgm is a trusted contrib extension (PostgreSQL 13+): a database owner may create it; PGlite
-- loads it from its contrib bundle (db/client.ts passes it to the constructor).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "sessions_order_id_trgm_idx" ON "sessions" USING gin ("order_id" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "sessions_customer_email_trgm_idx" ON "sessions" USING gin ("customer_email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "sessions_business_customer_idx" ON "sessions" USING btree ("business_id","customer");--> statement-breakpoint
CREATE INDEX "payments_customer_email_trgm_idx" ON "payments" USING gin (("customer_details"->>'email') gin_trgm_ops);