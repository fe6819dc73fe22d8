CREATE TABLE "learner_days" (
	"user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"again" integer DEFAULT 0 NOT NULL,
	"hard" integer DEFAULT 0 NOT NULL,
	"good" integer DEFAULT 0 NOT NULL,
	"easy" integer DEFAULT 0 NOT NULL,
	"new_terms" integer DEFAULT 0 NOT NULL,
	"tolearn" integer DEFAULT 0 NOT NULL,
	"inprogress" integer DEFAULT 0 NOT NULL,
	"needsreview" integer DEFAULT 0 NOT NULL,
	"learned" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "learner_days_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
CREATE TABLE "term_stage_days" (
	"term_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"tolearn" integer DEFAULT 0 NOT NULL,
	"inprogress" integer DEFAULT 0 NOT NULL,
	"needsreview" integer DEFAULT 0 NOT NULL,
	"learned" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "term_stage_days_term_id_day_pk" PRIMARY KEY("term_id","day")
);
--> statement-breakpoint
ALTER TABLE "review_logs" ADD COLUMN "user_id" uuid;--> statement-breakpoint
ALTER TABLE "review_logs" ADD COLUMN "day" date;--> statement-breakpoint
ALTER TABLE "review_logs" ADD COLUMN "due_day" date;--> statement-breakpoint
ALTER TABLE "terms" ADD COLUMN "created_day" date;--> statement-breakpoint
ALTER TABLE "terms" ADD COLUMN "last_review_day" date;--> statement-breakpoint
ALTER TABLE "terms" ADD COLUMN "due_day" date;--> statement-breakpoint
ALTER TABLE "learner_days" ADD CONSTRAINT "learner_days_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Statistics from aggregates: "learner_days" holds, per learner and day, the reviews by grade, the terms added and the
-- change of each stage's count, kept by the triggers below in the same transaction as every write to "review_logs"
-- and "terms", so the statistics page never reads the raw log. Days are the learner's, in their zone at the moment
-- of the write (stored with each review and term), so a later change of zone moves nothing already counted.
-- Concurrent writes of one learner cannot deadlock on the rows of several days: the data-version triggers of 0008 fire
-- first (triggers of one event fire in name order: "…_data_version" before "…_learner_days") and lock the learner's
-- "users" row until the transaction ends.
-- The learner's zone as the database spells it: UTC when none is set or the database does not know it.
CREATE FUNCTION "learner_zone"(p_user uuid) RETURNS text LANGUAGE plpgsql STABLE AS $$
DECLARE
  zone text;
BEGIN
  SELECT "time_zone" INTO zone FROM "learner_settings" WHERE "user_id" = p_user;
  IF zone IS NULL THEN
    RETURN 'UTC';
  END IF;
  BEGIN
    PERFORM now() AT TIME ZONE zone;
    RETURN zone;
  EXCEPTION WHEN invalid_parameter_value THEN
    RETURN 'UTC';
  END;
END
$$;
--> statement-breakpoint
-- A review's learner, its day and the day it is due again (the interval capped at the scheduler's 36,500 days).
CREATE FUNCTION "review_log_days"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  zone text;
BEGIN
  NEW."user_id" := (SELECT "user_id" FROM "terms" WHERE "id" = NEW."term_id");
  zone := learner_zone(NEW."user_id");
  NEW."day" := (NEW."reviewed_at" AT TIME ZONE zone)::date;
  NEW."due_day" := ((NEW."reviewed_at" + least(NEW."scheduled_days", 36500) * interval '86400 seconds') AT TIME ZONE zone)::date;
  RETURN NEW;
END
$$;
--> statement-breakpoint
-- A term's days of creation, last review and due time, taken again only when that moment changes.
CREATE FUNCTION "term_days"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  zone text;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW."created_at" IS NOT DISTINCT FROM OLD."created_at"
    AND NEW."last_review" IS NOT DISTINCT FROM OLD."last_review" AND NEW."due" IS NOT DISTINCT FROM OLD."due"
    AND NEW."user_id" = OLD."user_id" THEN
    NEW."created_day" := OLD."created_day";
    NEW."last_review_day" := OLD."last_review_day";
    NEW."due_day" := OLD."due_day";
    RETURN NEW;
  END IF;
  zone := learner_zone(NEW."user_id");
  IF TG_OP = 'INSERT' OR NEW."created_at" IS DISTINCT FROM OLD."created_at" OR NEW."user_id" <> OLD."user_id" THEN
    NEW."created_day" := (NEW."created_at" AT TIME ZONE zone)::date;
  ELSE
    NEW."created_day" := OLD."created_day";
  END IF;
  IF TG_OP = 'INSERT' OR NEW."last_review" IS DISTINCT FROM OLD."last_review" OR NEW."user_id" <> OLD."user_id" THEN
    NEW."last_review_day" := (NEW."last_review" AT TIME ZONE zone)::date;
  ELSE
    NEW."last_review_day" := OLD."last_review_day";
  END IF;
  IF TG_OP = 'INSERT' OR NEW."due" IS DISTINCT FROM OLD."due" OR NEW."user_id" <> OLD."user_id" THEN
    NEW."due_day" := (NEW."due" AT TIME ZONE zone)::date;
  ELSE
    NEW."due_day" := OLD."due_day";
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
-- Takes back the stage changes these terms added to "learner_days" and adds their share as it is now. A term's stage
-- on a day: not counted before its creation day; then, from the latest review on or before that day (days never go
-- back within a term's history: each counts from the latest day of the reviews up to it), in progress with a 0-day
-- interval, needs review from its due day on, else learned with 21 days or more, else in progress; before any review,
-- a card set by hand or imported counts like that from its last review's day on, anything else is to learn.
CREATE FUNCTION "refresh_term_stages"(ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH "taken" AS (
    DELETE FROM "term_stage_days" WHERE "term_id" = ANY(ids)
    RETURNING "user_id", "day", "tolearn", "inprogress", "needsreview", "learned"
  ), "summed" AS (
    SELECT "user_id", "day", sum("tolearn") AS "tl", sum("inprogress") AS "ip", sum("needsreview") AS "nr",
      sum("learned") AS "le"
    FROM "taken" GROUP BY "user_id", "day"
  )
  UPDATE "learner_days" AS d SET "tolearn" = d."tolearn" - s."tl", "inprogress" = d."inprogress" - s."ip",
    "needsreview" = d."needsreview" - s."nr", "learned" = d."learned" - s."le"
  FROM "summed" AS s WHERE d."user_id" = s."user_id" AND d."day" = s."day";

  INSERT INTO "term_stage_days" ("term_id", "user_id", "day", "tolearn", "inprogress", "needsreview", "learned")
  WITH "t" AS (
    SELECT "id", "user_id", "created_day" AS "c", "state", "scheduled_days" AS "s", "last_review_day" AS "lrd",
      "due_day" AS "due"
    FROM "terms" WHERE "id" = ANY(ids)
  ), "l" AS (
    SELECT r."term_id", r."reviewed_at", r."id", least(r."scheduled_days", 36500) AS "s", r."due_day" AS "due",
      max(r."day") OVER (PARTITION BY r."term_id" ORDER BY r."reviewed_at", r."id" ROWS UNBOUNDED PRECEDING) AS "eff"
    FROM "review_logs" AS r JOIN "t" ON t."id" = r."term_id"
  ), "first" AS (
    SELECT "term_id", min("eff") AS "f" FROM "l" GROUP BY "term_id"
  ), "segments" AS (
    SELECT "term_id", "eff" AS "a", lead("eff") OVER (PARTITION BY "term_id" ORDER BY "reviewed_at", "id") AS "b",
      "s", "due"
    FROM "l"
    UNION ALL
    SELECT t."id", t."c",
      CASE WHEN t."state" <> 0 AND t."lrd" IS NOT NULL THEN least(greatest(t."c", t."lrd"), f."f") ELSE f."f" END,
      -1, NULL
    FROM "t" LEFT JOIN "first" AS f ON f."term_id" = t."id"
    UNION ALL
    SELECT t."id", t."lrd", f."f", t."s", t."due"
    FROM "t" LEFT JOIN "first" AS f ON f."term_id" = t."id"
    WHERE t."state" <> 0 AND t."lrd" IS NOT NULL
  ), "pieces" AS (
    SELECT x."term_id", t."user_id", p."stage", p."from_day", p."to_day"
    FROM "segments" AS x JOIN "t" ON t."id" = x."term_id"
    CROSS JOIN LATERAL (VALUES
      (CASE WHEN x."s" < 0 THEN 'tolearn' WHEN x."s" = 0 THEN 'inprogress' WHEN x."s" >= 21 THEN 'learned'
        ELSE 'inprogress' END,
        greatest(x."a", t."c"), CASE WHEN x."s" <= 0 THEN x."b" ELSE least(x."due", x."b") END),
      (CASE WHEN x."s" > 0 THEN 'needsreview' END, greatest(x."a", t."c", x."due"), x."b")
    ) AS p("stage", "from_day", "to_day")
    WHERE p."stage" IS NOT NULL AND (p."to_day" IS NULL OR p."from_day" < p."to_day")
  ), "events" AS (
    SELECT "term_id", "user_id", "from_day" AS "day", "stage", 1 AS "delta" FROM "pieces"
    UNION ALL
    SELECT "term_id", "user_id", "to_day", "stage", -1 FROM "pieces" WHERE "to_day" IS NOT NULL
  )
  SELECT "term_id", "user_id", "day",
    coalesce(sum("delta") FILTER (WHERE "stage" = 'tolearn'), 0),
    coalesce(sum("delta") FILTER (WHERE "stage" = 'inprogress'), 0),
    coalesce(sum("delta") FILTER (WHERE "stage" = 'needsreview'), 0),
    coalesce(sum("delta") FILTER (WHERE "stage" = 'learned'), 0)
  FROM "events" GROUP BY "term_id", "user_id", "day"
  HAVING (coalesce(sum("delta") FILTER (WHERE "stage" = 'tolearn'), 0) <> 0
    OR coalesce(sum("delta") FILTER (WHERE "stage" = 'inprogress'), 0) <> 0
    OR coalesce(sum("delta") FILTER (WHERE "stage" = 'needsreview'), 0) <> 0
    OR coalesce(sum("delta") FILTER (WHERE "stage" = 'learned'), 0) <> 0);

  INSERT INTO "learner_days" ("user_id", "day", "tolearn", "inprogress", "needsreview", "learned")
  SELECT "user_id", "day", sum("tolearn"), sum("inprogress"), sum("needsreview"), sum("learned")
  FROM "term_stage_days" WHERE "term_id" = ANY(ids) GROUP BY "user_id", "day"
  ON CONFLICT ("user_id", "day") DO UPDATE SET "tolearn" = "learner_days"."tolearn" + excluded."tolearn",
    "inprogress" = "learner_days"."inprogress" + excluded."inprogress",
    "needsreview" = "learner_days"."needsreview" + excluded."needsreview",
    "learned" = "learner_days"."learned" + excluded."learned";
END
$$;
--> statement-breakpoint
CREATE FUNCTION "review_logs_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "learner_days" ("user_id", "day", "again", "hard", "good", "easy")
  SELECT "user_id", "day", count(*) FILTER (WHERE "rating" = 1), count(*) FILTER (WHERE "rating" = 2),
    count(*) FILTER (WHERE "rating" = 3), count(*) FILTER (WHERE "rating" = 4)
  FROM "new_rows" GROUP BY "user_id", "day"
  ON CONFLICT ("user_id", "day") DO UPDATE SET "again" = "learner_days"."again" + excluded."again",
    "hard" = "learner_days"."hard" + excluded."hard", "good" = "learner_days"."good" + excluded."good",
    "easy" = "learner_days"."easy" + excluded."easy";
  PERFORM refresh_term_stages(ARRAY(SELECT DISTINCT "term_id" FROM "new_rows"));
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Only rows that exist are taken from: a learner being deleted has none left to write to.
CREATE FUNCTION "review_logs_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "learner_days" AS d SET "again" = d."again" - o."again", "hard" = d."hard" - o."hard",
    "good" = d."good" - o."good", "easy" = d."easy" - o."easy"
  FROM (
    SELECT "user_id", "day", count(*) FILTER (WHERE "rating" = 1) AS "again", count(*) FILTER (WHERE "rating" = 2) AS "hard",
      count(*) FILTER (WHERE "rating" = 3) AS "good", count(*) FILTER (WHERE "rating" = 4) AS "easy"
    FROM "old_rows" GROUP BY "user_id", "day"
  ) AS o
  WHERE d."user_id" = o."user_id" AND d."day" = o."day";
  PERFORM refresh_term_stages(ARRAY(SELECT DISTINCT "term_id" FROM "old_rows"));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "terms_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "learner_days" ("user_id", "day", "new_terms")
  SELECT "user_id", "created_day", count(*) FROM "new_rows" GROUP BY "user_id", "created_day"
  ON CONFLICT ("user_id", "day") DO UPDATE SET "new_terms" = "learner_days"."new_terms" + excluded."new_terms";
  PERFORM refresh_term_stages(ARRAY(SELECT "id" FROM "new_rows"));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "terms_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "learner_days" AS d SET "new_terms" = d."new_terms" - o."n"
  FROM (
    SELECT o."user_id", o."created_day", count(*) AS "n" FROM "old_rows" AS o JOIN "new_rows" AS n ON n."id" = o."id"
    WHERE (n."user_id", n."created_day") IS DISTINCT FROM (o."user_id", o."created_day") GROUP BY 1, 2
  ) AS o
  WHERE d."user_id" = o."user_id" AND d."day" = o."created_day";
  INSERT INTO "learner_days" ("user_id", "day", "new_terms")
  SELECT n."user_id", n."created_day", count(*) FROM "old_rows" AS o JOIN "new_rows" AS n ON n."id" = o."id"
  WHERE (n."user_id", n."created_day") IS DISTINCT FROM (o."user_id", o."created_day") GROUP BY 1, 2
  ON CONFLICT ("user_id", "day") DO UPDATE SET "new_terms" = "learner_days"."new_terms" + excluded."new_terms";
  PERFORM refresh_term_stages(ARRAY(
    SELECT n."id" FROM "old_rows" AS o JOIN "new_rows" AS n ON n."id" = o."id"
    WHERE (n."user_id", n."state", n."scheduled_days", n."created_day", n."last_review_day", n."due_day")
      IS DISTINCT FROM (o."user_id", o."state", o."scheduled_days", o."created_day", o."last_review_day", o."due_day")));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "terms_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "learner_days" AS d SET "new_terms" = d."new_terms" - o."n"
  FROM (SELECT "user_id", "created_day", count(*) AS "n" FROM "old_rows" GROUP BY 1, 2) AS o
  WHERE d."user_id" = o."user_id" AND d."day" = o."created_day";
  PERFORM refresh_term_stages(ARRAY(SELECT "id" FROM "old_rows"));
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The days of what exists already, in each learner's zone now; the triggers are created after, so this fires none.
UPDATE "terms" SET "created_day" = ("created_at" AT TIME ZONE z."zone")::date,
  "last_review_day" = ("last_review" AT TIME ZONE z."zone")::date, "due_day" = ("due" AT TIME ZONE z."zone")::date
FROM (SELECT "id" AS "user_id", learner_zone("id") AS "zone" FROM "users") AS z WHERE z."user_id" = "terms"."user_id";
--> statement-breakpoint
UPDATE "review_logs" AS r SET "user_id" = t."user_id", "day" = (r."reviewed_at" AT TIME ZONE z."zone")::date,
  "due_day" = ((r."reviewed_at" + least(r."scheduled_days", 36500) * interval '86400 seconds') AT TIME ZONE z."zone")::date
FROM "terms" AS t, (SELECT "id" AS "user_id", learner_zone("id") AS "zone" FROM "users") AS z
WHERE t."id" = r."term_id" AND z."user_id" = t."user_id";
--> statement-breakpoint
INSERT INTO "learner_days" ("user_id", "day", "again", "hard", "good", "easy")
SELECT "user_id", "day", count(*) FILTER (WHERE "rating" = 1), count(*) FILTER (WHERE "rating" = 2),
  count(*) FILTER (WHERE "rating" = 3), count(*) FILTER (WHERE "rating" = 4)
FROM "review_logs" GROUP BY "user_id", "day";
--> statement-breakpoint
INSERT INTO "learner_days" ("user_id", "day", "new_terms")
SELECT "user_id", "created_day", count(*) FROM "terms" GROUP BY "user_id", "created_day"
ON CONFLICT ("user_id", "day") DO UPDATE SET "new_terms" = excluded."new_terms";
--> statement-breakpoint
SELECT refresh_term_stages(ARRAY(SELECT "id" FROM "terms"));
--> statement-breakpoint
CREATE TRIGGER "review_logs_days" BEFORE INSERT ON "review_logs" FOR EACH ROW EXECUTE FUNCTION "review_log_days"();
--> statement-breakpoint
CREATE TRIGGER "terms_days" BEFORE INSERT OR UPDATE ON "terms" FOR EACH ROW EXECUTE FUNCTION "term_days"();
--> statement-breakpoint
CREATE TRIGGER "review_logs_insert_learner_days" AFTER INSERT ON "review_logs" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "review_logs_inserted"();
--> statement-breakpoint
CREATE TRIGGER "review_logs_delete_learner_days" AFTER DELETE ON "review_logs" REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "review_logs_deleted"();
--> statement-breakpoint
CREATE TRIGGER "terms_insert_learner_days" AFTER INSERT ON "terms" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "terms_inserted"();
--> statement-breakpoint
CREATE TRIGGER "terms_update_learner_days" AFTER UPDATE ON "terms" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "terms_updated"();
--> statement-breakpoint
CREATE TRIGGER "terms_delete_learner_days" AFTER DELETE ON "terms" REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "terms_deleted"();
