-- The embedded database is written only by the one process that has it open: that process keeps each session's
-- learner in memory and forgets it when the learner's row changes, which every write of theirs, a sign-in and a
-- sign-out do (the triggers of 0008 and 0020), or when one of their sessions changes ("last seen", an expiry). With
-- "polyglot.learner_notify" set to 'on' on its connection, the learner of a changed or deleted row of "users" or a
-- changed row of "sessions" is announced on the channel "learner_changed" at commit (once per learner and
-- transaction). PostgreSQL's connections leave it unset: nothing is announced there.
CREATE OR REPLACE FUNCTION "learner_row_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."data_version" = OLD."data_version"
    AND to_jsonb(NEW) - 'vocabulary_version' IS DISTINCT FROM to_jsonb(OLD) - 'vocabulary_version' THEN
    NEW."data_version" := OLD."data_version" + 1;
  END IF;
  IF current_setting('polyglot.learner_notify', true) = 'on' AND NEW IS DISTINCT FROM OLD THEN
    PERFORM pg_notify('learner_changed', NEW."id"::text);
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "learner_row_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('polyglot.learner_notify', true) = 'on' THEN
    PERFORM pg_notify('learner_changed', OLD."id"::text);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "users_deleted_announced" AFTER DELETE ON "users" FOR EACH ROW EXECUTE FUNCTION "learner_row_deleted"();
--> statement-breakpoint
CREATE FUNCTION "session_row_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('polyglot.learner_notify', true) = 'on' THEN
    PERFORM pg_notify('learner_changed', OLD."user_id"::text);
    PERFORM pg_notify('learner_changed', NEW."user_id"::text);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "sessions_update_announced" AFTER UPDATE ON "sessions" FOR EACH ROW EXECUTE FUNCTION "session_row_changed"();
