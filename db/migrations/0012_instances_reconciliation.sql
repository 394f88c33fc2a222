CREATE TABLE "instances" (
	"id" text PRIMARY KEY NOT NULL,
	"hostname" text NOT NULL,
	"pid" integer NOT NULL,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "instance_id" text;--> statement-breakpoint
CREATE INDEX "instances_heartbeat_idx" ON "instances" USING btree ("heartbeat_at");--> statement-breakpoint
CREATE INDEX "payment_attempts_started_idx" ON "payment_attempts" USING btree ("updated_at") WHERE "payment_attempts"."status" = 'started';--> statement-breakpoint
CREATE INDEX "sandbox_provider_payments_reference_idx" ON "sandbox_provider_payments" USING btree ("business_id","reference");