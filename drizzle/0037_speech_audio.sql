CREATE TABLE "speech_audio" (
	"hash" text PRIMARY KEY NOT NULL,
	"voice" text NOT NULL,
	"size" integer NOT NULL,
	"data" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"used_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "speech_audio_used_idx" ON "speech_audio" USING btree ("used_at");