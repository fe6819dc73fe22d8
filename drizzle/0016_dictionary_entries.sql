CREATE TABLE "dictionary_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"source" text NOT NULL,
	"from_language" text NOT NULL,
	"to_language" text NOT NULL,
	"headword" text NOT NULL,
	"headword_key" text NOT NULL,
	"lemma" text,
	"lemma_key" text,
	"reading" text,
	"part_of_speech" text,
	"glosses" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dictionary_sources" (
	"name" text NOT NULL,
	"from_language" text NOT NULL,
	"to_language" text NOT NULL,
	"title" text NOT NULL,
	"licence" text NOT NULL,
	"url" text DEFAULT '' NOT NULL,
	"entries" integer NOT NULL,
	"digest" text DEFAULT '' NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dictionary_sources_name_from_language_to_language_pk" PRIMARY KEY("name","from_language","to_language")
);
--> statement-breakpoint
CREATE INDEX "dictionary_entries_headword_idx" ON "dictionary_entries" USING btree ("from_language","to_language","headword_key");--> statement-breakpoint
CREATE INDEX "dictionary_entries_lemma_idx" ON "dictionary_entries" USING btree ("from_language","to_language","lemma_key");--> statement-breakpoint
CREATE INDEX "dictionary_entries_source_idx" ON "dictionary_entries" USING btree ("source","from_language","to_language");