CREATE TABLE "mail_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"business_id" text,
	"kind" text NOT NULL,
	"to_address" text NOT NULL,
	"subject" text NOT NULL,
	"text_body" text NOT NULL,
	"html_body" text NOT NULL,
	"message_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"last_error" text,
	"sent_at" timestamp(6) with time zone,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mail_messages_message_id_unique" UNIQUE("message_id"),
	CONSTRAINT "mail_messages_status_valid" CHECK ("mail_messages"."status" IN ('pending', 'sent', 'kept', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "invitations" (
	"id" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"digest" text NOT NULL,
	"invited_by" text,
	"expires_at" timestamp(6) with time zone NOT NULL,
	"accepted_at" timestamp(6) with time zone,
	"accepted_by" text,
	"revoked_at" timestamp(6) with time zone,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invitations_role_valid" CHECK ("invitations"."role" IN ('owner', 'manager'))
);
--> statement-breakpoint
CREATE TABLE "payout_approvals" (
	"id" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"kind" text NOT NULL,
	"amount" bigint NOT NULL,
	"payload" jsonb NOT NULL,
	"requested_by" text NOT NULL,
	"requested_by_email" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"decided_by" text,
	"decided_by_email" text,
	"decided_at" timestamp(6) with time zone,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_approvals_status_valid" CHECK ("payout_approvals"."status" IN ('pending', 'approved', 'rejected')),
	CONSTRAINT "payout_approvals_four_eyes" CHECK ("payout_approvals"."decided_by" IS NULL OR "payout_approvals"."decided_by" <> "payout_approvals"."requested_by")
);
--> statement-breakpoint
CREATE TABLE "staff_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"device_digest" text NOT NULL,
	"ip" text,
	"user_agent" text,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp(6) with time zone
);
--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "approval_threshold_cents" bigint;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD CONSTRAINT "mail_messages_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_accepted_by_users_id_fk" FOREIGN KEY ("accepted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_approvals" ADD CONSTRAINT "payout_approvals_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_approvals" ADD CONSTRAINT "payout_approvals_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_approvals" ADD CONSTRAINT "payout_approvals_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_sessions" ADD CONSTRAINT "staff_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_messages_created_idx" ON "mail_messages" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_digest_idx" ON "invitations" USING btree ("digest");--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_open_email_idx" ON "invitations" USING btree ("business_id",lower("email")) WHERE "invitations"."accepted_at" IS NULL AND "invitations"."revoked_at" IS NULL;--> statement-breakpoint
CREATE INDEX "payout_approvals_business_idx" ON "payout_approvals" USING btree ("business_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_approvals_pending_withdrawal_idx" ON "payout_approvals" USING btree ("business_id",("payload" ->> 'withdrawalId')) WHERE "payout_approvals"."status" = 'pending' AND "payout_approvals"."kind" = 'complete_withdrawal';--> statement-breakpoint
CREATE INDEX "staff_sessions_user_idx" ON "staff_sessions" USING btree ("user_id","device_digest");