-- Every instance on PostgreSQL now listens for the learners' changes (decision 078), so every connection announces
-- them, not only those that turned "polyglot.learner_notify" on (0021): a change made outside the app (an operator's
-- statement, a script) reaches the sessions and pages the instances keep too. A connection may still turn the
-- announcements off with the setting 'off'. The functions are those of 0021 and 0022 with that condition alone changed.
CREATE OR REPLACE FUNCTION "learner_row_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."data_version" = OLD."data_version"
    AND to_jsonb(NEW) - 'vocabulary_version' IS DISTINCT FROM to_jsonb(OLD) - 'vocabulary_version' THEN
    NEW."data_version" := OLD."data_version" + 1;
  END IF;
  IF current_setting('polyglot.learner_notify', true) IS DISTINCT FROM 'off' AND NEW IS DISTINCT FROM OLD THEN
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
CREATE OR REPLACE FUNCTION "learner_row_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('polyglot.learner_notify', true) IS DISTINCT FROM 'off' THEN
    PERFORM pg_notify('learner_changed', OLD."id"::text);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "session_row_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('polyglot.learner_notify', true) IS DISTINCT FROM 'off' THEN
    PERFORM pg_notify('learner_changed', OLD."user_id"::text);
    PERFORM pg_notify('learner_changed', NEW."user_id"::text);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "session_row_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('polyglot.learner_notify', true) IS DISTINCT FROM 'off' THEN
    PERFORM pg_notify('learner_changed', OLD."user_id"::text);
  END IF;
  RETURN NULL;
END
$$;
