import { index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
// `.ts`: scripts load the tables with plain `node` (see db/open.server.ts).
import { bytea } from "../learning/sounds.schema.ts";

/**
 * Audio of the server's text-to-speech provider (ADR 140), one row per text and voice, shared by every instance and
 * learner: `hash` is the SHA-256 of the voice and the text. At most SPEECH_CACHE_ROWS rows; the least recently used go
 * first.
 */
export const speechAudio = pgTable(
  "speech_audio",
  {
    hash: text("hash").primaryKey(),
    voice: text("voice").notNull(),
    size: integer("size").notNull(),
    data: bytea("data").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Moved forward at most once a day, so a cache hit seldom writes. */
    usedAt: timestamp("used_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("speech_audio_used_idx").on(table.usedAt)],
);
