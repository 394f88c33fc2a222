CREATE TABLE "plan_order_ids" (
	"business_id" text NOT NULL,
	"order_id" text NOT NULL,
	"session_id" text NOT NULL,
	CONSTRAINT "plan_order_ids_business_id_order_id_pk" PRIMARY KEY("business_id","order_id")
);
--> statement-breakpoint
ALTER TABLE "plan_order_ids" ADD CONSTRAINT "plan_order_ids_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_order_ids" ADD CONSTRAINT "plan_order_ids_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Decision 0056, second pass: the order ids of plans in a table of their own, one key each, so a
-- session `A-<n>`'s look for a plan `A` has a plan cached once per connection that can only be the
-- primary key (sequential scans are off in the function), instead of a plan made at each call.
INSERT INTO "plan_order_ids" ("business_id", "order_id", "session_id")
  SELECT "business_id", "order_id", "id" FROM "sessions" WHERE "subscription_interval" IS NOT NULL;
--> statement-breakpoint
-- Every session written as a plan is remembered, whichever code (or SQL) writes it, in the
-- session's own transaction. A session's order id and subscription never change after its insert.
CREATE FUNCTION kassa_remember_plan_order_id() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO plan_order_ids (business_id, order_id, session_id) VALUES (NEW.business_id, NEW.order_id, NEW.id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER sessions_plan_order_id AFTER INSERT ON sessions FOR EACH ROW
  WHEN (NEW.subscription_interval IS NOT NULL) EXECUTE FUNCTION kassa_remember_plan_order_id();
--> statement-breakpoint
-- The same claim as migration 0027: the stem's shared lock, then the look for a plan `A` (a fresh
-- snapshot per statement: VOLATILE), refused with SQLSTATE KS001. The look is now static SQL on the
-- one-key table: planned once per connection, and with sequential scans off (a plan made while the
-- table was empty would otherwise scan every plan for as long as the connection lives, where
-- autovacuum does not run), the primary key is its only way.
CREATE OR REPLACE FUNCTION kassa_claim_order_stem(business text, stem text) RETURNS text LANGUAGE plpgsql VOLATILE
SET enable_seqscan = off AS $$
DECLARE
  plan_id text;
BEGIN
  PERFORM pg_advisory_xact_lock_shared(hashtextextended('order:' || business || ':' || stem, 0));
  SELECT session_id INTO plan_id FROM plan_order_ids WHERE business_id = business AND order_id = stem;
  IF plan_id IS NOT NULL THEN
    RAISE EXCEPTION 'order id stem % is taken by plan %', stem, plan_id USING ERRCODE = 'KS001';
  END IF;
  RETURN NULL;
END
$$;
