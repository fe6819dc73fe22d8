-- A sign-in or a sign-out moves the learner's data version like any other write: the profile lists their sessions
-- and is kept in memory (per session) until the version moves. Only new and ended sessions: "last seen", updated as a
-- learner browses, shows on no kept page for longer than a kept page lives (a minute).
CREATE TRIGGER "sessions_insert_data_version" AFTER INSERT ON "sessions" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_data_changed"();
--> statement-breakpoint
CREATE TRIGGER "sessions_delete_data_version" AFTER DELETE ON "sessions" REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_data_changed"();
