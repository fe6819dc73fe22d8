-- A write of a learner's data changes nothing of their row but its data version (the triggers of 0008 and 0020): the
-- announcement of such a change (0021) now carries the version, "<id> <data version>", so the process that keeps the
-- learner's sessions moves the version it keeps instead of reading the row again. Any other change of the row is
-- announced by the id alone, as before, and so is a session that ends (signed out, here or everywhere): what is kept
-- of it goes.
CREATE OR REPLACE FUNCTION "learner_row_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."data_version" = OLD."data_version"
    AND to_jsonb(NEW) - 'vocabulary_version' IS DISTINCT FROM to_jsonb(OLD) - 'vocabulary_version' THEN
    NEW."data_version" := OLD."data_version" + 1;
  END IF;
  IF current_setting('polyglot.learner_notify', true) = 'on' AND NEW IS DISTINCT FROM OLD THEN
    IF to_jsonb(NEW) - 'data_version' = to_jsonb(OLD) - 'data_version' THEN
      PERFORM pg_notify('learner_changed', NEW."id"::text || ' ' || NEW."data_version"::text);
    ELSE
      PERFORM pg_notify('learner_changed', NEW."id"::text);
    END IF;
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "session_row_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('polyglot.learner_notify', true) = 'on' THEN
    PERFORM pg_notify('learner_changed', OLD."user_id"::text);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "sessions_delete_announced" AFTER DELETE ON "sessions" FOR EACH ROW EXECUTE FUNCTION "session_row_deleted"();
