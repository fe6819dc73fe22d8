-- Word families (ADR 061): a term may name its lemma ("Hunde" → "Hund"). Deleting the lemma leaves its forms unlinked.
-- The partial index finds a lemma's forms (and lets that delete find them) without touching terms that have none.
ALTER TABLE "terms" ADD COLUMN "parent_id" uuid;--> statement-breakpoint
ALTER TABLE "terms" ADD CONSTRAINT "terms_parent_id_terms_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."terms"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "terms_parent_idx" ON "terms" USING btree ("parent_id") WHERE "terms"."parent_id" is not null;--> statement-breakpoint
ALTER TABLE "terms" ADD CONSTRAINT "terms_parent_not_self" CHECK ("terms"."parent_id" <> "terms"."id");--> statement-breakpoint
-- A family is one level deep, within one learner and one language: the parent is a term of the same learner and
-- language that is no form itself, and a term with forms of its own is no form. So no chain and no cycle, whoever
-- writes. The code checks the same first (app/learning/families.server.ts) to answer with a message.
CREATE FUNCTION "term_parent_check"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM "terms" AS "p"
    WHERE "p"."id" = NEW."parent_id" AND "p"."user_id" = NEW."user_id" AND "p"."language" = NEW."language"
      AND "p"."parent_id" IS NULL
  ) THEN
    RAISE EXCEPTION 'a term''s parent is a term of the same learner and language that has no parent'
      USING ERRCODE = '23514', CONSTRAINT = 'terms_parent_family';
  END IF;
  IF EXISTS (SELECT 1 FROM "terms" AS "f" WHERE "f"."parent_id" = NEW."id") THEN
    RAISE EXCEPTION 'a term with forms of its own has no parent'
      USING ERRCODE = '23514', CONSTRAINT = 'terms_parent_family';
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "terms_parent_check" BEFORE INSERT OR UPDATE OF "parent_id", "user_id", "language" ON "terms" FOR EACH ROW WHEN (NEW."parent_id" IS NOT NULL) EXECUTE FUNCTION "term_parent_check"();
