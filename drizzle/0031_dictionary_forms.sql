CREATE TABLE "dictionary_forms" (
	"source" text NOT NULL,
	"language" text NOT NULL,
	"form_key" text NOT NULL,
	"lemma" text NOT NULL,
	"lemma_key" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "dictionary_forms_form_idx" ON "dictionary_forms" USING btree ("language","form_key");--> statement-breakpoint
CREATE INDEX "dictionary_forms_source_idx" ON "dictionary_forms" USING btree ("source","language");