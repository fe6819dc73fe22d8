CREATE TABLE "public_data_version" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- One row only; every instance reads it every few seconds (app/server/shared-data.server.ts).
ALTER TABLE "public_data_version" ADD CONSTRAINT "public_data_version_one_row" CHECK ("id" = 1);
--> statement-breakpoint
INSERT INTO "public_data_version" ("id", "version") VALUES (1, 0);
--> statement-breakpoint
-- Moves the version when a statement changed rows shown on the public pages, whoever wrote them: a pledge or a refund
-- recorded from a webhook on any instance, pledges forgotten with an account, the public lists loaded by a new release.
-- A statement that changed no row (the lists' upsert at each start when nothing changed) moves nothing.
CREATE FUNCTION "public_data_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "changed_rows") THEN
    UPDATE "public_data_version" SET "version" = "version" + 1 WHERE "id" = 1;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "pledges_insert_public_data" AFTER INSERT ON "pledges" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "public_data_changed"();
--> statement-breakpoint
CREATE TRIGGER "pledges_update_public_data" AFTER UPDATE ON "pledges" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "public_data_changed"();
--> statement-breakpoint
CREATE TRIGGER "pledges_delete_public_data" AFTER DELETE ON "pledges" REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "public_data_changed"();
--> statement-breakpoint
CREATE TRIGGER "public_terms_insert_public_data" AFTER INSERT ON "public_terms" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "public_data_changed"();
--> statement-breakpoint
CREATE TRIGGER "public_terms_update_public_data" AFTER UPDATE ON "public_terms" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "public_data_changed"();
--> statement-breakpoint
CREATE TRIGGER "public_terms_delete_public_data" AFTER DELETE ON "public_terms" REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "public_data_changed"();
