-- One answer at a time per dispute (issue 41, parallel accept and evidence): the claim of the answer
-- on its way to Stripe. Nullable, no default: the running release ignores it.
ALTER TABLE "disputes" ADD COLUMN "answer_claimed_until" timestamp(6) with time zone;