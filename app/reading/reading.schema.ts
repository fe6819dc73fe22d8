import { date, index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
// `.ts`: scripts load the tables with plain `node` (see db/open.server.ts).
import { users } from "../auth/auth.schema.ts";

/** A text a learner reads in one study language (pasted or uploaded, at most TEXT_LIMIT_BYTES of UTF-8). */
export const texts = pgTable(
  "texts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    language: text("language").notNull(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    /**
     * Where the body's sentences and words lie (JSON of segment.ts' `Offsets`), worked out when the text is written;
     * null for a text written before it was stored, until it is first read.
     */
    segments: text("segments"),
    /** The number of words of the body, with `segments`. */
    wordCount: integer("word_count"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    /** When the learner last opened it in the reader (My home offers to continue the last one); null until then. */
    openedAt: timestamp("opened_at", { withTimezone: true }),
  },
  (table) => [index("texts_user_language_created_idx").on(table.userId, table.language, table.createdAt)],
);

/**
 * A learner's known words (ADR 105): marked in the reader ("I know this word", "mark the rest of this page as known"),
 * plain text there, never a card. Lower-cased per language.
 */
export const ignoredWords = pgTable(
  "ignored_words",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    language: text("language").notNull(),
    word: text("word").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** The learner's day of `created_at` in their zone then, set by a trigger (drizzle/0029): known_days counts it. */
    day: date("day", { mode: "string" }),
  },
  (table) => [primaryKey({ columns: [table.userId, table.language, table.word] })],
);
