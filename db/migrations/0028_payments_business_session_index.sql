-- A business's payments in session order (decision 0057): the CSV export's pages walk a business's
-- sessions in id order and join each page's payments in one ordered pass, instead of one primary
-- key look-up per row. It replaces the index on business_id alone, which it serves as well.
DROP INDEX "payments_business_idx";--> statement-breakpoint
CREATE INDEX "payments_business_session_idx" ON "payments" USING btree ("business_id","session_id");
