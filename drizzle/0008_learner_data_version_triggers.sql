-- Keeps "users"."data_version" moving with every change to what a learner's pages show, whoever writes it: pages kept
-- in memory for a learner (app/http/learner-pages.server.ts) are valid only for the version they were drawn from.
-- Statement-level triggers with transition tables: one update of the learner's row per statement, however many rows
-- it wrote (an import of thousands of terms costs one).
CREATE FUNCTION "learner_data_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "users" SET "data_version" = "data_version" + 1
  WHERE "id" IN (SELECT DISTINCT "user_id" FROM "changed_rows");
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "learner_term_data_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "users" SET "data_version" = "data_version" + 1
  WHERE "id" IN (SELECT "terms"."user_id" FROM "terms" JOIN "changed_rows" ON "changed_rows"."term_id" = "terms"."id");
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "learner_row_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."data_version" = OLD."data_version" AND NEW IS DISTINCT FROM OLD THEN
    NEW."data_version" := OLD."data_version" + 1;
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "users_data_version" BEFORE UPDATE ON "users" FOR EACH ROW EXECUTE FUNCTION "learner_row_changed"();
--> statement-breakpoint
CREATE TRIGGER "terms_insert_data_version" AFTER INSERT ON "terms" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_data_changed"();
--> statement-breakpoint
CREATE TRIGGER "terms_update_data_version" AFTER UPDATE ON "terms" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_data_changed"();
--> statement-breakpoint
CREATE TRIGGER "terms_delete_data_version" AFTER DELETE ON "terms" REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_data_changed"();
--> statement-breakpoint
CREATE TRIGGER "learner_settings_insert_data_version" AFTER INSERT ON "learner_settings" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_data_changed"();
--> statement-breakpoint
CREATE TRIGGER "learner_settings_update_data_version" AFTER UPDATE ON "learner_settings" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_data_changed"();
--> statement-breakpoint
CREATE TRIGGER "learner_settings_delete_data_version" AFTER DELETE ON "learner_settings" REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_data_changed"();
--> statement-breakpoint
CREATE TRIGGER "subscriptions_insert_data_version" AFTER INSERT ON "subscriptions" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_data_changed"();
--> statement-breakpoint
CREATE TRIGGER "subscriptions_update_data_version" AFTER UPDATE ON "subscriptions" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_data_changed"();
--> statement-breakpoint
CREATE TRIGGER "subscriptions_delete_data_version" AFTER DELETE ON "subscriptions" REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_data_changed"();
--> statement-breakpoint
CREATE TRIGGER "texts_insert_data_version" AFTER INSERT ON "texts" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_data_changed"();
--> statement-breakpoint
CREATE TRIGGER "texts_update_data_version" AFTER UPDATE ON "texts" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_data_changed"();
--> statement-breakpoint
CREATE TRIGGER "texts_delete_data_version" AFTER DELETE ON "texts" REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_data_changed"();
--> statement-breakpoint
CREATE TRIGGER "ignored_words_insert_data_version" AFTER INSERT ON "ignored_words" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_data_changed"();
--> statement-breakpoint
CREATE TRIGGER "ignored_words_update_data_version" AFTER UPDATE ON "ignored_words" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_data_changed"();
--> statement-breakpoint
CREATE TRIGGER "ignored_words_delete_data_version" AFTER DELETE ON "ignored_words" REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_data_changed"();
--> statement-breakpoint
CREATE TRIGGER "import_drafts_insert_data_version" AFTER INSERT ON "import_drafts" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_data_changed"();
--> statement-breakpoint
CREATE TRIGGER "import_drafts_update_data_version" AFTER UPDATE ON "import_drafts" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_data_changed"();
--> statement-breakpoint
CREATE TRIGGER "import_drafts_delete_data_version" AFTER DELETE ON "import_drafts" REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_data_changed"();
--> statement-breakpoint
CREATE TRIGGER "term_examples_insert_data_version" AFTER INSERT ON "term_examples" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_term_data_changed"();
--> statement-breakpoint
CREATE TRIGGER "term_examples_update_data_version" AFTER UPDATE ON "term_examples" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_term_data_changed"();
--> statement-breakpoint
CREATE TRIGGER "term_examples_delete_data_version" AFTER DELETE ON "term_examples" REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_term_data_changed"();
--> statement-breakpoint
CREATE TRIGGER "review_logs_insert_data_version" AFTER INSERT ON "review_logs" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_term_data_changed"();
--> statement-breakpoint
CREATE TRIGGER "review_logs_update_data_version" AFTER UPDATE ON "review_logs" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_term_data_changed"();
--> statement-breakpoint
CREATE TRIGGER "review_logs_delete_data_version" AFTER DELETE ON "review_logs" REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_term_data_changed"();
