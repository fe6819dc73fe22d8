-- Expand step of an expand/contract change (docs/decisions/046): review_logs.user_id, filled by a trigger since 0013,
-- becomes something the code writes and the daily counts read through an index of (user_id, reviewed_at). Only
-- instant changes here, which the code of the release before runs with: a table for background migrations, a check
-- added NOT VALID (no scan), and the job that builds the index CONCURRENTLY and validates the check after start
-- (app/server/background-migrations.server.ts). Contract step, a later release: SET NOT NULL (the validated check
-- spares the scan), drop the check and the trigger's fill.
CREATE TABLE "background_migrations" (
	"name" text PRIMARY KEY NOT NULL,
	"claimed_until" timestamp with time zone,
	"done_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "review_logs" ADD CONSTRAINT "review_logs_user_id_not_null" CHECK ("review_logs"."user_id" is not null) NOT VALID;--> statement-breakpoint
INSERT INTO "background_migrations" ("name") VALUES ('0015_review_logs_user_reviewed_idx');
