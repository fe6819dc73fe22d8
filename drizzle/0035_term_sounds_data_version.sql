-- A term's sound shows on its term page and on the review's answer side: a change to it moves the learner's data
-- version (as in drizzle/0008), so pages cached in memory for the learner are rendered again.
CREATE TRIGGER "term_sounds_insert_data_version" AFTER INSERT ON "term_sounds" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_data_changed"();
--> statement-breakpoint
CREATE TRIGGER "term_sounds_update_data_version" AFTER UPDATE ON "term_sounds" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_data_changed"();
--> statement-breakpoint
CREATE TRIGGER "term_sounds_delete_data_version" AFTER DELETE ON "term_sounds" REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_data_changed"();
