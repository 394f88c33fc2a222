-- A session `A-<n>` that is not a plan claims its order id's stem `A` inside its own insert
-- (decision 0056): the stem's shared lock, then the check that no plan `A` exists, read with a
-- snapshot taken once the lock is held (a VOLATILE function's statements each take a fresh one).
-- A plan `A` is refused with SQLSTATE KS001, so the insert and its expiry job roll back together;
-- no plan: NULL. The lock lasts until the insert's transaction ends, as a plan `A` takes `A`
-- exclusively in its own transaction (lib/sessions/order-id-collision.ts).
CREATE FUNCTION kassa_claim_order_stem(business text, stem text) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  plan_id text;
BEGIN
  PERFORM pg_advisory_xact_lock_shared(hashtextextended('order:' || business || ':' || stem, 0));
  -- Planned at each call (EXECUTE), not once per connection: a plan made while the table was
  -- nearly empty costs every index on business_id alike, may take (business_id, customer), and
  -- would then scan all of the business's sessions for as long as the connection lives.
  EXECUTE 'SELECT id FROM sessions WHERE business_id = $1 AND order_id = $2 AND subscription_interval IS NOT NULL'
    INTO plan_id USING business, stem;
  IF plan_id IS NOT NULL THEN
    RAISE EXCEPTION 'order id stem % is taken by plan %', stem, plan_id USING ERRCODE = 'KS001';
  END IF;
  RETURN NULL;
END
$$;
