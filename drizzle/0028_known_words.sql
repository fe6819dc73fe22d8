-- Known words are the reader's known (ignored) words, never terms (ADR 105). Before, "mark the rest of this page as
-- known" added each word as a term in the learned stage, with no meaning and a card due 21 days later. Such terms
-- become known words of their learner and language, on the day they were marked, and their cards go: a term with an
-- empty meaning, notes and examples, in review with an interval of 21 days or more, that was never reviewed (no row of
-- its own in review_logs), is neither a form of another term nor the parent of one. Every term that was reviewed stays.
-- Deleting the terms fires the triggers of 0013, which take back their share of "learner_days" (terms added, stages).
-- The word is lower-cased as the reader does (lowerFor in app/reading/segment.ts: Turkish and Azeri I → ı, İ → i).
CREATE TEMPORARY TABLE "marked_known" ON COMMIT DROP AS
SELECT t."id", t."user_id", t."language", t."created_at",
  lower(CASE WHEN t."language" IN ('tr', 'az') THEN replace(replace(t."text", 'I', 'ı'), 'İ', 'i') ELSE t."text" END)
    AS "word"
FROM "terms" AS t
WHERE t."meaning" = '' AND t."notes" = '' AND t."state" = 2 AND t."scheduled_days" >= 21 AND t."parent_id" IS NULL
  AND NOT EXISTS (SELECT 1 FROM "review_logs" AS r WHERE r."term_id" = t."id")
  AND NOT EXISTS (SELECT 1 FROM "term_examples" AS e WHERE e."term_id" = t."id")
  AND NOT EXISTS (SELECT 1 FROM "terms" AS c WHERE c."parent_id" = t."id");
--> statement-breakpoint
INSERT INTO "ignored_words" ("user_id", "language", "word", "created_at")
SELECT "user_id", "language", "word", min("created_at") FROM "marked_known" GROUP BY 1, 2, 3
ON CONFLICT DO NOTHING;
--> statement-breakpoint
DELETE FROM "terms" WHERE "id" IN (SELECT "id" FROM "marked_known");
