CREATE TABLE "fsrs_parameters" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"parameters" jsonb,
	"reviews" integer NOT NULL,
	"fitted_at" timestamp with time zone NOT NULL,
	"default_log_loss" double precision,
	"default_rmse" double precision,
	"fitted_log_loss" double precision,
	"fitted_rmse" double precision
);
--> statement-breakpoint
ALTER TABLE "learner_settings" ADD COLUMN "desired_retention" double precision DEFAULT 0.9 NOT NULL;--> statement-breakpoint
ALTER TABLE "fsrs_parameters" ADD CONSTRAINT "fsrs_parameters_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learner_settings" ADD CONSTRAINT "learner_settings_desired_retention_range" CHECK ("learner_settings"."desired_retention" >= 0.8 and "learner_settings"."desired_retention" <= 0.97);--> statement-breakpoint
-- A fit changes what the learner's statistics show: their pages kept in memory are redrawn (as in drizzle/0008).
CREATE TRIGGER "fsrs_parameters_insert_data_version" AFTER INSERT ON "fsrs_parameters" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_data_changed"();
--> statement-breakpoint
CREATE TRIGGER "fsrs_parameters_update_data_version" AFTER UPDATE ON "fsrs_parameters" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_data_changed"();
--> statement-breakpoint
CREATE TRIGGER "fsrs_parameters_delete_data_version" AFTER DELETE ON "fsrs_parameters" REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "learner_data_changed"();
