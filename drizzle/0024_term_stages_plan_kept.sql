-- The stage days of terms (0013) are taken again with one plan kept for the session instead of a plan made at every
-- call: with an array of term ids as parameter, PL/pgSQL planned the function's statements for the ids at hand each
-- time, and planning the stage days' query cost more than running it. A plan made once must hold for any ids and on a
-- database without planner statistics (PGlite gathers none; PostgreSQL until autovacuum has run): each term's reviews
-- are now read by the term's index (a lateral join: the planner cannot answer it by reading the whole log), and the
-- learners' days are taken back by their key from the few sums of the days taken (instead of a join it may answer by
-- reading all of "learner_days"). Same results: the property test of tests/integration/statistics-aggregates.test.ts.
CREATE OR REPLACE FUNCTION "refresh_term_stages"(ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  taken_users uuid[];
  taken_days date[];
  taken_tl integer[];
  taken_ip integer[];
  taken_nr integer[];
  taken_le integer[];
BEGIN
  WITH "taken" AS (
    DELETE FROM "term_stage_days" WHERE "term_id" = ANY(ids)
    RETURNING "user_id", "day", "tolearn", "inprogress", "needsreview", "learned"
  )
  SELECT array_agg("user_id"), array_agg("day"), array_agg("tl"), array_agg("ip"), array_agg("nr"), array_agg("le")
  INTO taken_users, taken_days, taken_tl, taken_ip, taken_nr, taken_le
  FROM (
    SELECT "user_id", "day", sum("tolearn")::integer AS "tl", sum("inprogress")::integer AS "ip",
      sum("needsreview")::integer AS "nr", sum("learned")::integer AS "le"
    FROM "taken" GROUP BY "user_id", "day"
  ) AS "summed";
  UPDATE "learner_days" AS d SET "tolearn" = d."tolearn" - s."tl", "inprogress" = d."inprogress" - s."ip",
    "needsreview" = d."needsreview" - s."nr", "learned" = d."learned" - s."le"
  FROM unnest(taken_users, taken_days, taken_tl, taken_ip, taken_nr, taken_le) AS s("user_id", "day", "tl", "ip", "nr", "le")
  WHERE d."user_id" = s."user_id" AND d."day" = s."day";

  INSERT INTO "term_stage_days" ("term_id", "user_id", "day", "tolearn", "inprogress", "needsreview", "learned")
  WITH "t" AS (
    SELECT "id", "user_id", "created_day" AS "c", "state", "scheduled_days" AS "s", "last_review_day" AS "lrd",
      "due_day" AS "due"
    FROM "terms" WHERE "id" = ANY(ids)
  ), "l" AS (
    SELECT t."id" AS "term_id", r."reviewed_at", r."id", least(r."scheduled_days", 36500) AS "s", r."due_day" AS "due",
      r."eff"
    FROM "t" CROSS JOIN LATERAL (
      SELECT r."reviewed_at", r."id", r."scheduled_days", r."due_day",
        max(r."day") OVER (ORDER BY r."reviewed_at", r."id" ROWS UNBOUNDED PRECEDING) AS "eff"
      FROM "review_logs" AS r WHERE r."term_id" = t."id"
    ) AS r
  ), "first" AS (
    SELECT "term_id", min("eff") AS "f" FROM "l" GROUP BY "term_id"
  ), "segments" AS (
    SELECT "term_id", "eff" AS "a", lead("eff") OVER (PARTITION BY "term_id" ORDER BY "reviewed_at", "id") AS "b",
      "s", "due"
    FROM "l"
    UNION ALL
    SELECT t."id", t."c",
      CASE WHEN t."state" <> 0 AND t."lrd" IS NOT NULL THEN least(greatest(t."c", t."lrd"), f."f") ELSE f."f" END,
      -1, NULL
    FROM "t" LEFT JOIN "first" AS f ON f."term_id" = t."id"
    UNION ALL
    SELECT t."id", t."lrd", f."f", t."s", t."due"
    FROM "t" LEFT JOIN "first" AS f ON f."term_id" = t."id"
    WHERE t."state" <> 0 AND t."lrd" IS NOT NULL
  ), "pieces" AS (
    SELECT x."term_id", t."user_id", p."stage", p."from_day", p."to_day"
    FROM "segments" AS x JOIN "t" ON t."id" = x."term_id"
    CROSS JOIN LATERAL (VALUES
      (CASE WHEN x."s" < 0 THEN 'tolearn' WHEN x."s" = 0 THEN 'inprogress' WHEN x."s" >= 21 THEN 'learned'
        ELSE 'inprogress' END,
        greatest(x."a", t."c"), CASE WHEN x."s" <= 0 THEN x."b" ELSE least(x."due", x."b") END),
      (CASE WHEN x."s" > 0 THEN 'needsreview' END, greatest(x."a", t."c", x."due"), x."b")
    ) AS p("stage", "from_day", "to_day")
    WHERE p."stage" IS NOT NULL AND (p."to_day" IS NULL OR p."from_day" < p."to_day")
  ), "events" AS (
    SELECT "term_id", "user_id", "from_day" AS "day", "stage", 1 AS "delta" FROM "pieces"
    UNION ALL
    SELECT "term_id", "user_id", "to_day", "stage", -1 FROM "pieces" WHERE "to_day" IS NOT NULL
  )
  SELECT "term_id", "user_id", "day",
    coalesce(sum("delta") FILTER (WHERE "stage" = 'tolearn'), 0),
    coalesce(sum("delta") FILTER (WHERE "stage" = 'inprogress'), 0),
    coalesce(sum("delta") FILTER (WHERE "stage" = 'needsreview'), 0),
    coalesce(sum("delta") FILTER (WHERE "stage" = 'learned'), 0)
  FROM "events" GROUP BY "term_id", "user_id", "day"
  HAVING (coalesce(sum("delta") FILTER (WHERE "stage" = 'tolearn'), 0) <> 0
    OR coalesce(sum("delta") FILTER (WHERE "stage" = 'inprogress'), 0) <> 0
    OR coalesce(sum("delta") FILTER (WHERE "stage" = 'needsreview'), 0) <> 0
    OR coalesce(sum("delta") FILTER (WHERE "stage" = 'learned'), 0) <> 0);

  INSERT INTO "learner_days" ("user_id", "day", "tolearn", "inprogress", "needsreview", "learned")
  SELECT "user_id", "day", sum("tolearn"), sum("inprogress"), sum("needsreview"), sum("learned")
  FROM "term_stage_days" WHERE "term_id" = ANY(ids) GROUP BY "user_id", "day"
  ON CONFLICT ("user_id", "day") DO UPDATE SET "tolearn" = "learner_days"."tolearn" + excluded."tolearn",
    "inprogress" = "learner_days"."inprogress" + excluded."inprogress",
    "needsreview" = "learner_days"."needsreview" + excluded."needsreview",
    "learned" = "learner_days"."learned" + excluded."learned";
END
$$;
--> statement-breakpoint
ALTER FUNCTION "refresh_term_stages"(uuid[]) SET plan_cache_mode = force_generic_plan;
