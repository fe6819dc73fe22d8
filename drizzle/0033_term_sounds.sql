CREATE TABLE "term_sounds" (
	"term_id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"hash" text NOT NULL,
	"size" integer NOT NULL,
	"name" text NOT NULL,
	"data" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "import_draft_sounds" (
	"draft_id" uuid NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"hash" text NOT NULL,
	"size" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "import_draft_sounds_draft_id_name_pk" PRIMARY KEY("draft_id","name")
);
--> statement-breakpoint
ALTER TABLE "learner_settings" ADD COLUMN "autoplay_sounds" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "term_sounds" ADD CONSTRAINT "term_sounds_term_id_terms_id_fk" FOREIGN KEY ("term_id") REFERENCES "public"."terms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "term_sounds" ADD CONSTRAINT "term_sounds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_draft_sounds" ADD CONSTRAINT "import_draft_sounds_draft_id_import_drafts_id_fk" FOREIGN KEY ("draft_id") REFERENCES "public"."import_drafts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "term_sounds_user_hash_idx" ON "term_sounds" USING btree ("user_id","hash");