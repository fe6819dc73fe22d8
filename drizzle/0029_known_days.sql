CREATE TABLE "known_days" (
	"user_id" uuid NOT NULL,
	"language" text NOT NULL,
	"day" date NOT NULL,
	"words" integer DEFAULT 0 NOT NULL,
	"learned" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "known_days_user_id_language_day_pk" PRIMARY KEY("user_id","language","day")
);
--> statement-breakpoint
ALTER TABLE "ignored_words" ADD COLUMN "day" date;--> statement-breakpoint
ALTER TABLE "term_stage_days" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "known_days" ADD CONSTRAINT "known_days_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The number of words a learner knows in a language (ADR 105): their known words plus their learned terms, charted by
-- day from "known_days", kept by the triggers below in the same transaction as every write, never from a scan.
-- A known word counts on its "day": the learner's day of its "created_at" in their zone at that moment (like a term's
-- "created_day", 0013), stored so that removing it takes back exactly what it added.
-- A term's learned days are its rows of "term_stage_days" (0013), which now name the term's language: their changes of
-- "learned" are added to, and taken back from, its learner's "known_days" in that language.
UPDATE "ignored_words" SET "day" = ("created_at" AT TIME ZONE z."zone")::date
FROM (SELECT "id" AS "user_id", learner_zone("id") AS "zone" FROM "users") AS z WHERE z."user_id" = "ignored_words"."user_id";
--> statement-breakpoint
UPDATE "term_stage_days" AS s SET "language" = t."language" FROM "terms" AS t WHERE t."id" = s."term_id";
--> statement-breakpoint
INSERT INTO "known_days" ("user_id", "language", "day", "words")
SELECT "user_id", "language", "day", count(*) FROM "ignored_words" GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO "known_days" ("user_id", "language", "day", "learned")
SELECT "user_id", "language", "day", sum("learned") FROM "term_stage_days"
WHERE "language" IS NOT NULL AND "learned" <> 0 GROUP BY 1, 2, 3
ON CONFLICT ("user_id", "language", "day") DO UPDATE SET "learned" = excluded."learned";
--> statement-breakpoint
CREATE FUNCTION "ignored_word_day"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."day" := (NEW."created_at" AT TIME ZONE learner_zone(NEW."user_id"))::date;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "ignored_words_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "known_days" ("user_id", "language", "day", "words")
  SELECT "user_id", "language", "day", count(*) FROM "new_rows" GROUP BY 1, 2, 3
  ON CONFLICT ("user_id", "language", "day") DO UPDATE SET "words" = "known_days"."words" + excluded."words";
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Only rows that exist are taken from: a learner being deleted has none left to write to.
CREATE FUNCTION "ignored_words_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "known_days" AS d SET "words" = d."words" - o."n"
  FROM (SELECT "user_id", "language", "day", count(*) AS "n" FROM "old_rows" GROUP BY 1, 2, 3) AS o
  WHERE d."user_id" = o."user_id" AND d."language" = o."language" AND d."day" = o."day";
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "term_stage_day_language"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."language" := (SELECT "language" FROM "terms" WHERE "id" = NEW."term_id");
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "term_stage_days_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "known_days" ("user_id", "language", "day", "learned")
  SELECT "user_id", "language", "day", sum("learned") FROM "new_rows"
  WHERE "learned" <> 0 AND "language" IS NOT NULL GROUP BY 1, 2, 3
  ON CONFLICT ("user_id", "language", "day") DO UPDATE SET "learned" = "known_days"."learned" + excluded."learned";
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "term_stage_days_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "known_days" AS d SET "learned" = d."learned" - o."n"
  FROM (
    SELECT "user_id", "language", "day", sum("learned") AS "n" FROM "old_rows"
    WHERE "learned" <> 0 AND "language" IS NOT NULL GROUP BY 1, 2, 3
  ) AS o
  WHERE d."user_id" = o."user_id" AND d."language" = o."language" AND d."day" = o."day";
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A term moved to another language takes its learned days along: its stage days are taken again (0013's function
-- deletes and inserts them, and the triggers above move their share).
CREATE FUNCTION "term_language_known_days"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_term_stages(ARRAY[NEW."id"]);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "ignored_words_day" BEFORE INSERT ON "ignored_words" FOR EACH ROW EXECUTE FUNCTION "ignored_word_day"();
--> statement-breakpoint
CREATE TRIGGER "ignored_words_insert_known_days" AFTER INSERT ON "ignored_words" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "ignored_words_inserted"();
--> statement-breakpoint
CREATE TRIGGER "ignored_words_delete_known_days" AFTER DELETE ON "ignored_words" REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "ignored_words_deleted"();
--> statement-breakpoint
CREATE TRIGGER "term_stage_days_language" BEFORE INSERT ON "term_stage_days" FOR EACH ROW EXECUTE FUNCTION "term_stage_day_language"();
--> statement-breakpoint
CREATE TRIGGER "term_stage_days_insert_known_days" AFTER INSERT ON "term_stage_days" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "term_stage_days_inserted"();
--> statement-breakpoint
CREATE TRIGGER "term_stage_days_delete_known_days" AFTER DELETE ON "term_stage_days" REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "term_stage_days_deleted"();
--> statement-breakpoint
CREATE TRIGGER "terms_language_known_days" AFTER UPDATE OF "language" ON "terms" FOR EACH ROW WHEN (OLD."language" IS DISTINCT FROM NEW."language") EXECUTE FUNCTION "term_language_known_days"();
