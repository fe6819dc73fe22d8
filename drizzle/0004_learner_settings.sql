CREATE TABLE "learner_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"new_per_day" integer DEFAULT 20 NOT NULL,
	"reviews_per_day" integer DEFAULT 200 NOT NULL,
	"time_zone" text,
	"review_modes" text DEFAULT 'forward' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "learner_settings" ADD CONSTRAINT "learner_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;