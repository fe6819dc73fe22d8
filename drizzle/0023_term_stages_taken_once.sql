-- A grade updates its term and logs the review in one statement, after which both of its triggers (terms_updated,
-- review_logs_inserted of 0013) took the term's stage days again: the same work twice, each seeing both changes. A
-- trigger now skips a term whose stage days this transaction took again after the change it answers (a later command
-- of the same transaction: the days were taken from a state that includes the change). Changes made in separate
-- statements are taken again each time, as before, and so is anything the check cannot tell (a subtransaction).
CREATE FUNCTION "term_stages_taken_after"(p_term uuid, p_xmin xid, p_cmin cid) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT p_xmin = pg_current_xact_id()::xid AND EXISTS (
    SELECT 1 FROM "term_stage_days" AS s
    WHERE s."term_id" = p_term AND s.xmin = p_xmin AND s.cmin::text::bigint > p_cmin::text::bigint)
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "review_logs_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "learner_days" ("user_id", "day", "again", "hard", "good", "easy")
  SELECT "user_id", "day", count(*) FILTER (WHERE "rating" = 1), count(*) FILTER (WHERE "rating" = 2),
    count(*) FILTER (WHERE "rating" = 3), count(*) FILTER (WHERE "rating" = 4)
  FROM "new_rows" GROUP BY "user_id", "day"
  ON CONFLICT ("user_id", "day") DO UPDATE SET "again" = "learner_days"."again" + excluded."again",
    "hard" = "learner_days"."hard" + excluded."hard", "good" = "learner_days"."good" + excluded."good",
    "easy" = "learner_days"."easy" + excluded."easy";
  PERFORM refresh_term_stages(ARRAY(
    SELECT DISTINCT n."term_id" FROM "new_rows" AS n JOIN "review_logs" AS r ON r."id" = n."id"
    WHERE NOT term_stages_taken_after(n."term_id", r.xmin, r.cmin)));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "terms_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
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
    SELECT n."id" FROM "old_rows" AS o JOIN "new_rows" AS n ON n."id" = o."id" JOIN "terms" AS t ON t."id" = n."id"
    WHERE (n."user_id", n."state", n."scheduled_days", n."created_day", n."last_review_day", n."due_day")
      IS DISTINCT FROM (o."user_id", o."state", o."scheduled_days", o."created_day", o."last_review_day", o."due_day")
      AND NOT term_stages_taken_after(n."id", t.xmin, t.cmin)));
  RETURN NULL;
END
$$;
