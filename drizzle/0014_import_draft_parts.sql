CREATE TABLE "import_draft_parts" (
	"draft_id" uuid NOT NULL,
	"part" integer NOT NULL,
	"content" text NOT NULL,
	CONSTRAINT "import_draft_parts_draft_id_part_pk" PRIMARY KEY("draft_id","part")
);
--> statement-breakpoint
ALTER TABLE "import_draft_parts" ADD CONSTRAINT "import_draft_parts_draft_id_import_drafts_id_fk" FOREIGN KEY ("draft_id") REFERENCES "public"."import_drafts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "import_draft_parts" ("draft_id", "part", "content") SELECT "id", 0, "content" FROM "import_drafts";--> statement-breakpoint
ALTER TABLE "import_drafts" DROP COLUMN "content";