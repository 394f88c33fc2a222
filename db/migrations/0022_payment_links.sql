CREATE TABLE "payment_link_sessions" (
	"session_id" text PRIMARY KEY NOT NULL,
	"link_id" text NOT NULL,
	"visit_id" text NOT NULL,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_links" (
	"id" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"slug" text NOT NULL,
	"order_prefix" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"items" jsonb NOT NULL,
	"description" text,
	"metadata" jsonb NOT NULL,
	"subscription_interval" text,
	"subscription_interval_count" integer,
	"adjustable_quantity" jsonb,
	"max_uses" integer,
	"uses" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp(6) with time zone,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_link_sessions" ADD CONSTRAINT "payment_link_sessions_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_link_sessions" ADD CONSTRAINT "payment_link_sessions_link_id_payment_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."payment_links"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_links" ADD CONSTRAINT "payment_links_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_link_sessions_visit_idx" ON "payment_link_sessions" USING btree ("link_id","visit_id");--> statement-breakpoint
CREATE INDEX "payment_link_sessions_link_idx" ON "payment_link_sessions" USING btree ("link_id","session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_links_slug_idx" ON "payment_links" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_links_business_prefix_idx" ON "payment_links" USING btree ("business_id","order_prefix");