-- My home's welcome (study language, level, new terms per day) until the learner answers or skips it; learners who
-- signed up before it existed are past their start and count as welcomed. A text's last opening in the reader, for
-- My home's "continue reading".
ALTER TABLE "users" ADD COLUMN "welcomed_at" timestamp with time zone;--> statement-breakpoint
UPDATE "users" SET "welcomed_at" = "created_at";--> statement-breakpoint
ALTER TABLE "texts" ADD COLUMN "opened_at" timestamp with time zone;
