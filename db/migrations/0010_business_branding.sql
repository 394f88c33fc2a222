CREATE TABLE "business_logos" (
	"business_id" text PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"content" "bytea" NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "business_logos_content_type" CHECK ("business_logos"."content_type" in ('image/png', 'image/jpeg', 'image/webp')),
	CONSTRAINT "business_logos_size" CHECK (octet_length("business_logos"."content") between 1 and 262144)
);
--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "brand_color" text;--> statement-breakpoint
ALTER TABLE "business_logos" ADD CONSTRAINT "business_logos_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "businesses" ADD CONSTRAINT "businesses_brand_color_hex" CHECK ("businesses"."brand_color" ~ '^#[0-9a-f]{6}$');