-- The ledger and the payout history are append-only: corrections are new transactions, never edits.
CREATE FUNCTION kassa_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'restrict_violation';
END
$$;
--> statement-breakpoint
CREATE TRIGGER ledger_transactions_append_only BEFORE UPDATE OR DELETE ON "ledger_transactions"
  FOR EACH ROW EXECUTE FUNCTION kassa_append_only();
--> statement-breakpoint
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON "ledger_entries"
  FOR EACH ROW EXECUTE FUNCTION kassa_append_only();
--> statement-breakpoint
CREATE TRIGGER payout_entries_append_only BEFORE UPDATE OR DELETE ON "payout_entries"
  FOR EACH ROW EXECUTE FUNCTION kassa_append_only();
