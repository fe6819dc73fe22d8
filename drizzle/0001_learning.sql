CREATE TABLE "public_terms" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"language" text NOT NULL,
	"level" text NOT NULL,
	"text" text NOT NULL,
	"meaning" text NOT NULL,
	"part_of_speech" text NOT NULL,
	"example_sentence" text NOT NULL,
	"example_translation" text DEFAULT '' NOT NULL,
	"position" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_logs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"term_id" uuid NOT NULL,
	"rating" smallint NOT NULL,
	"state" smallint NOT NULL,
	"reviewed_at" timestamp with time zone NOT NULL,
	"scheduled_days" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "term_examples" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"term_id" uuid NOT NULL,
	"sentence" text NOT NULL,
	"translation" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "terms" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"language" text NOT NULL,
	"text" text NOT NULL,
	"meaning" text DEFAULT '' NOT NULL,
	"part_of_speech" text NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"due" timestamp with time zone DEFAULT now() NOT NULL,
	"stability" double precision DEFAULT 0 NOT NULL,
	"difficulty" double precision DEFAULT 0 NOT NULL,
	"elapsed_days" integer DEFAULT 0 NOT NULL,
	"scheduled_days" integer DEFAULT 0 NOT NULL,
	"learning_steps" integer DEFAULT 0 NOT NULL,
	"reps" integer DEFAULT 0 NOT NULL,
	"lapses" integer DEFAULT 0 NOT NULL,
	"state" smallint DEFAULT 0 NOT NULL,
	"last_review" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "review_logs" ADD CONSTRAINT "review_logs_term_id_terms_id_fk" FOREIGN KEY ("term_id") REFERENCES "public"."terms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "term_examples" ADD CONSTRAINT "term_examples_term_id_terms_id_fk" FOREIGN KEY ("term_id") REFERENCES "public"."terms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "terms" ADD CONSTRAINT "terms_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "public_terms_list_text_idx" ON "public_terms" USING btree ("language","level","text");--> statement-breakpoint
CREATE INDEX "public_terms_list_idx" ON "public_terms" USING btree ("language","level","position");--> statement-breakpoint
CREATE INDEX "review_logs_term_idx" ON "review_logs" USING btree ("term_id");--> statement-breakpoint
CREATE INDEX "term_examples_term_idx" ON "term_examples" USING btree ("term_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "terms_user_language_text_idx" ON "terms" USING btree ("user_id","language",lower("text"));--> statement-breakpoint
CREATE INDEX "terms_user_language_created_idx" ON "terms" USING btree ("user_id","language","created_at");--> statement-breakpoint
CREATE INDEX "terms_user_language_due_idx" ON "terms" USING btree ("user_id","language","due");