-- A review carries its term's study language, so a learner's grades of today in one language (the review page's
-- progress, read with their day on every page that shows it) are counted from the day's rows alone, without reading
-- each one's term. Filled on insert by the trigger that fills the learner and the days (0013); rows logged before stay
-- null and are read with their term as before. A term's language never changes in the app; if it is changed in the
-- database, its reviews follow.
ALTER TABLE "review_logs" ADD COLUMN "language" text;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "review_log_days"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  zone text;
BEGIN
  SELECT "user_id", "language" INTO NEW."user_id", NEW."language" FROM "terms" WHERE "id" = NEW."term_id";
  zone := learner_zone(NEW."user_id");
  NEW."day" := (NEW."reviewed_at" AT TIME ZONE zone)::date;
  NEW."due_day" := ((NEW."reviewed_at" + least(NEW."scheduled_days", 36500) * interval '86400 seconds') AT TIME ZONE zone)::date;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "term_language_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "review_logs" SET "language" = NEW."language" WHERE "term_id" = NEW."id";
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "terms_language_reviews" AFTER UPDATE OF "language" ON "terms" FOR EACH ROW
  WHEN (OLD."language" IS DISTINCT FROM NEW."language") EXECUTE FUNCTION "term_language_changed"();
