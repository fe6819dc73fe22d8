CREATE TABLE "learner_language_days" (
	"user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"language" text NOT NULL,
	"graded" integer DEFAULT 0 NOT NULL,
	"passed" integer DEFAULT 0 NOT NULL,
	"new_graded" integer DEFAULT 0 NOT NULL,
	"review_graded" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "learner_language_days_user_id_day_language_pk" PRIMARY KEY("user_id","day","language")
);
--> statement-breakpoint
ALTER TABLE "learner_language_days" ADD CONSTRAINT "learner_language_days_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Today's grades per learner, day and study language ("learner_language_days"), kept by triggers on review_logs in
-- the same transaction as every grade: the daily limits and the review page's progress read one row per language
-- instead of counting the day's reviews on every page (a learner's day of a thousand grades made each of their pages
-- read a thousand rows). A review counts on its own "day" (the learner's zone at the moment of the review, 0013) and
-- in its own "language" (0025).
-- Reviews logged before 0025 take their term's language now, so that every review names its group, also when its
-- term is gone (a deleted term's reviews are deleted with it, and take their share back).
UPDATE "review_logs" AS r SET "language" = t."language" FROM "terms" AS t WHERE t."id" = r."term_id" AND r."language" IS NULL;
--> statement-breakpoint
INSERT INTO "learner_language_days" ("user_id", "day", "language", "graded", "passed", "new_graded", "review_graded")
SELECT r."user_id", r."day", r."language", count(*), count(*) FILTER (WHERE r."rating" > 1),
  count(*) FILTER (WHERE r."state" = 0), count(*) FILTER (WHERE r."state" = 2)
FROM "review_logs" AS r
WHERE r."user_id" IS NOT NULL AND r."day" IS NOT NULL AND r."language" IS NOT NULL
GROUP BY 1, 2, 3;
--> statement-breakpoint
CREATE FUNCTION "review_logs_inserted_by_language"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "learner_language_days" AS d ("user_id", "day", "language", "graded", "passed", "new_graded",
    "review_graded")
  SELECT n."user_id", n."day", n."language", count(*), count(*) FILTER (WHERE n."rating" > 1),
    count(*) FILTER (WHERE n."state" = 0), count(*) FILTER (WHERE n."state" = 2)
  FROM "new_rows" AS n WHERE n."user_id" IS NOT NULL AND n."day" IS NOT NULL AND n."language" IS NOT NULL
  GROUP BY 1, 2, 3
  ON CONFLICT ("user_id", "day", "language") DO UPDATE SET "graded" = d."graded" + excluded."graded",
    "passed" = d."passed" + excluded."passed", "new_graded" = d."new_graded" + excluded."new_graded",
    "review_graded" = d."review_graded" + excluded."review_graded";
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Deleted reviews (a deleted term's, a deleted account's) take their counts back.
CREATE FUNCTION "review_logs_deleted_by_language"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "learner_language_days" AS d SET "graded" = d."graded" - o."graded", "passed" = d."passed" - o."passed",
    "new_graded" = d."new_graded" - o."new_graded", "review_graded" = d."review_graded" - o."review_graded"
  FROM (
    SELECT o."user_id", o."day", o."language", count(*) AS "graded", count(*) FILTER (WHERE o."rating" > 1) AS "passed",
      count(*) FILTER (WHERE o."state" = 0) AS "new_graded", count(*) FILTER (WHERE o."state" = 2) AS "review_graded"
    FROM "old_rows" AS o GROUP BY 1, 2, 3
  ) AS o
  WHERE d."user_id" = o."user_id" AND d."day" = o."day" AND d."language" = o."language";
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A review that counts elsewhere after an update (its term's language changed, 0025, or anything else it is counted
-- by) leaves its old group and joins the new one.
CREATE FUNCTION "review_logs_updated_by_language"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH "changed" AS (
    SELECT o."user_id" AS "old_user", o."day" AS "old_day", o."language" AS "old_language", o."rating" AS "old_rating",
      o."state" AS "old_state", n."user_id", n."day", n."language", n."rating", n."state"
    FROM "old_rows" AS o JOIN "new_rows" AS n ON n."id" = o."id"
    WHERE (n."user_id", n."day", n."language", n."rating", n."state")
      IS DISTINCT FROM (o."user_id", o."day", o."language", o."rating", o."state")
  ), "moved" AS (
    SELECT c."old_user" AS "user_id", c."old_day" AS "day", c."old_language" AS "language", c."old_rating" AS "rating",
      c."old_state" AS "state", -1 AS "sign" FROM "changed" AS c
    UNION ALL
    SELECT c."user_id", c."day", c."language", c."rating", c."state", 1 FROM "changed" AS c
  )
  INSERT INTO "learner_language_days" AS d ("user_id", "day", "language", "graded", "passed", "new_graded",
    "review_graded")
  SELECT m."user_id", m."day", m."language", sum(m."sign"), coalesce(sum(m."sign") FILTER (WHERE m."rating" > 1), 0),
    coalesce(sum(m."sign") FILTER (WHERE m."state" = 0), 0), coalesce(sum(m."sign") FILTER (WHERE m."state" = 2), 0)
  FROM "moved" AS m WHERE m."user_id" IS NOT NULL AND m."day" IS NOT NULL AND m."language" IS NOT NULL
  GROUP BY 1, 2, 3
  ON CONFLICT ("user_id", "day", "language") DO UPDATE SET "graded" = d."graded" + excluded."graded",
    "passed" = d."passed" + excluded."passed", "new_graded" = d."new_graded" + excluded."new_graded",
    "review_graded" = d."review_graded" + excluded."review_graded";
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "review_logs_insert_by_language" AFTER INSERT ON "review_logs" REFERENCING NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "review_logs_inserted_by_language"();
--> statement-breakpoint
CREATE TRIGGER "review_logs_delete_by_language" AFTER DELETE ON "review_logs" REFERENCING OLD TABLE AS "old_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "review_logs_deleted_by_language"();
--> statement-breakpoint
CREATE TRIGGER "review_logs_update_by_language" AFTER UPDATE ON "review_logs" REFERENCING OLD TABLE AS "old_rows"
  NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "review_logs_updated_by_language"();
