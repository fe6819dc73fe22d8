ALTER TABLE "users" ADD COLUMN "vocabulary_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "texts" ADD COLUMN "segments" text;--> statement-breakpoint
ALTER TABLE "texts" ADD COLUMN "word_count" integer;--> statement-breakpoint
-- Keeps "users"."vocabulary_version" moving with every change to the words the reader matches texts against: terms
-- added, removed or renamed (or moved to another language), words ignored or no longer ignored. Grades do not move it:
-- the stages they change are applied when a page is drawn. Statement-level where a statement can write many rows.
CREATE FUNCTION "learner_vocabulary_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "users" SET "vocabulary_version" = "vocabulary_version" + 1
  WHERE "id" IN (SELECT DISTINCT "user_id" FROM "changed_rows");
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "learner_term_renamed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "users" SET "vocabulary_version" = "vocabulary_version" + 1 WHERE "id" IN (OLD."user_id", NEW."user_id");
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "terms_insert_vocabulary_version" AFTER INSERT ON "terms" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_vocabulary_changed"();
--> statement-breakpoint
CREATE TRIGGER "terms_delete_vocabulary_version" AFTER DELETE ON "terms" REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_vocabulary_changed"();
--> statement-breakpoint
CREATE TRIGGER "terms_rename_vocabulary_version" AFTER UPDATE OF "text", "language", "user_id" ON "terms" FOR EACH ROW WHEN (OLD."text" IS DISTINCT FROM NEW."text" OR OLD."language" IS DISTINCT FROM NEW."language" OR OLD."user_id" IS DISTINCT FROM NEW."user_id") EXECUTE FUNCTION "learner_term_renamed"();
--> statement-breakpoint
CREATE TRIGGER "ignored_words_insert_vocabulary_version" AFTER INSERT ON "ignored_words" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_vocabulary_changed"();
--> statement-breakpoint
CREATE TRIGGER "ignored_words_update_vocabulary_version" AFTER UPDATE ON "ignored_words" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_vocabulary_changed"();
--> statement-breakpoint
CREATE TRIGGER "ignored_words_delete_vocabulary_version" AFTER DELETE ON "ignored_words" REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_vocabulary_changed"();
--> statement-breakpoint
-- The learner's row moves "data_version" when it changes, except for "vocabulary_version" alone: that moves only with
-- writes to terms and ignored words, whose own triggers move "data_version" already (once per statement).
CREATE OR REPLACE FUNCTION "learner_row_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."data_version" = OLD."data_version"
    AND to_jsonb(NEW) - 'vocabulary_version' IS DISTINCT FROM to_jsonb(OLD) - 'vocabulary_version' THEN
    NEW."data_version" := OLD."data_version" + 1;
  END IF;
  RETURN NEW;
END
$$;
