CREATE TABLE "stripe_emulator_accounts" (
	"account_id" text PRIMARY KEY NOT NULL,
	"key_digest" text NOT NULL,
	CONSTRAINT "stripe_emulator_accounts_key_digest_unique" UNIQUE("key_digest")
);
--> statement-breakpoint
CREATE TABLE "stripe_emulator_fields" (
	"account_id" text NOT NULL,
	"field" text NOT NULL,
	"entry" text NOT NULL,
	"document" json NOT NULL,
	CONSTRAINT "stripe_emulator_fields_account_id_field_entry_pk" PRIMARY KEY("account_id","field","entry")
);
--> statement-breakpoint
CREATE TABLE "stripe_emulator_objects" (
	"account_id" text NOT NULL,
	"object_id" text NOT NULL,
	"kind" text NOT NULL,
	"seq" integer NOT NULL,
	"document" json NOT NULL,
	CONSTRAINT "stripe_emulator_objects_account_id_object_id_pk" PRIMARY KEY("account_id","object_id")
);
--> statement-breakpoint
ALTER TABLE "stripe_emulator_fields" ADD CONSTRAINT "stripe_emulator_fields_account_id_stripe_emulator_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."stripe_emulator_accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stripe_emulator_objects" ADD CONSTRAINT "stripe_emulator_objects_account_id_stripe_emulator_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."stripe_emulator_accounts"("account_id") ON DELETE cascade ON UPDATE no action;