import { date, integer, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
// `.ts`: scripts load the tables with plain `node` (see db/open.server.ts).
import { users } from "../auth/auth.schema.ts";

/**
 * Per learner and day (in the learner's zone at the moment of each event), what the statistics page draws, kept by
 * database triggers on review_logs and terms in the same transaction as every write (drizzle/0013): reviews by grade,
 * terms added, and the change of each stage's count on that day (a term's stage on a day is the sum up to it).
 */
export const learnerDays = pgTable(
  "learner_days",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    again: integer("again").notNull().default(0),
    hard: integer("hard").notNull().default(0),
    good: integer("good").notNull().default(0),
    easy: integer("easy").notNull().default(0),
    newTerms: integer("new_terms").notNull().default(0),
    tolearn: integer("tolearn").notNull().default(0),
    inprogress: integer("inprogress").notNull().default(0),
    needsreview: integer("needsreview").notNull().default(0),
    learned: integer("learned").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.userId, table.day] })],
);

/**
 * Per learner, day and study language, the day's grades (drizzle/0027): how many, how many passed, and how many of new
 * cards and of cards in review (the daily limits). A day is the learner's in their zone at the moment of each review,
 * like learner_days. Kept by triggers on review_logs in the same transaction as every grade, so the pages read today's
 * figures in one row per language, however many grades the day holds.
 */
export const learnerLanguageDays = pgTable(
  "learner_language_days",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    language: text("language").notNull(),
    graded: integer("graded").notNull().default(0),
    passed: integer("passed").notNull().default(0),
    newGraded: integer("new_graded").notNull().default(0),
    reviewGraded: integer("review_graded").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.userId, table.day, table.language] })],
);

/**
 * Each term's share of the stage changes in learner_days, so a write to one term takes back exactly what that term
 * added before and adds its new share (maintained by the same triggers; no foreign key: the triggers remove it).
 */
export const termStageDays = pgTable(
  "term_stage_days",
  {
    termId: uuid("term_id").notNull(),
    userId: uuid("user_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    tolearn: integer("tolearn").notNull().default(0),
    inprogress: integer("inprogress").notNull().default(0),
    needsreview: integer("needsreview").notNull().default(0),
    learned: integer("learned").notNull().default(0),
    /** The term's language, filled by a trigger on insert (drizzle/0029): the known words' history per language. */
    language: text("language"),
  },
  (table) => [primaryKey({ columns: [table.termId, table.day] })],
);

/**
 * Per learner, study language and day, the change of the number of words they know (ADR 105): known words marked or
 * no longer marked (`words`, on the day each was marked) and terms becoming learned or no longer learned (`learned`,
 * the same changes as learner_days' learned, per language). The number on a day is the sum up to it. Kept by triggers
 * on ignored_words and term_stage_days in the same transaction as every write (drizzle/0029).
 */
export const knownDays = pgTable(
  "known_days",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    language: text("language").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    words: integer("words").notNull().default(0),
    learned: integer("learned").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.userId, table.language, table.day] })],
);
